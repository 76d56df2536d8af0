"""Sum up JUnit XML files; exit 1 when one is missing, has failures, or ran no test."""

import sys
import xml.etree.ElementTree as ET

total = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
bad = False
for path in sys.argv[1:]:
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        print(f"junit: {path}: {e}")
        bad = True
        continue
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    n = {k: sum(int(s.get(k, 0)) for s in suites) for k in total}
    for k in total:
        total[k] += n[k]
    print(f"junit: {path}: {n['tests']} tests, {n['failures']} failures, "
          f"{n['errors']} errors, {n['skipped']} skipped")
    if n["tests"] == 0 or n["failures"] or n["errors"]:
        bad = True
passed = total["tests"] - total["failures"] - total["errors"] - total["skipped"]
print(f"{passed} passed, {total['failures'] + total['errors']} failed, "
      f"{total['skipped']} skipped")
sys.exit(1 if bad else 0)

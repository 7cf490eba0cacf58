"""The term: a course declared in course.yaml, a roster, submission times and late penalties, one SQLite
ledger for every assignment, LMS gradebook exports, regrades with a record and feedback released on purpose."""

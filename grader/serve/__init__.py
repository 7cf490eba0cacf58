"""`grade serve OUT_DIR`: hand grading in the browser, question by question.

`guide` reads the assignment's hand-grading guide (model answers, notes, rubric entries), `cohort` reads
the class from its reports, `store` keeps every grade in SQLite (versioned, with its history), `publish`
merges them into the reports through `grader.batch.manual`, `text` renders student text safely, `auth`
guards the pages (token, cookie, CSRF) and `app` is the Flask application.
"""

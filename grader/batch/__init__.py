"""A whole class: `grade batch` (engines: threads, Dask; shards and their merge), safe folder names,
and the hand-grading sheet (`grade manual`). Each submission is graded by `grader.grading`."""

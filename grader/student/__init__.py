"""The student's laptop: `grade --local` (public material only, unofficial), its content-keyed cache,
and `grade pack` (the zip to hand in)."""

"""The kit's own benchmarks (`python tasks.py bench …`): not part of the wheel; public APIs only."""

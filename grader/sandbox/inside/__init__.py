"""Scripts copied into the sandbox and run there by its own interpreter.

They import nothing from `grader` (a test enforces it): only the standard library,
numpy, torch, nbformat and nbclient, so nothing of the grader runs beside student code.
"""

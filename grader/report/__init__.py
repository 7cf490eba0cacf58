"""Renderings of a Report: terminal, JSON, Markdown, HTML, Gradescope; the class summary."""

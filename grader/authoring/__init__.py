"""Instructor tools: tags and notebooks split into two trees, the kit check, the release."""

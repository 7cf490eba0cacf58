"""lrkit: build, release and grade the linear/recurrent attention assignments."""
__version__ = "0.1.0"

"""autodidact: an autonomous, resumable, evidence-grounded research engine."""

__version__ = "0.1.0"
__all__ = ["__version__"]

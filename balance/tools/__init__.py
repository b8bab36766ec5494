"""Developer tools that ship with the package (``python -m balance.tools.<name>``)."""

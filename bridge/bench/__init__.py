"""``vtt-bridge bench``: measured figures, each against a baseline measured in the same run."""

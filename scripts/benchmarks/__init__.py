"""Measurements printed as ratios and scores, never asserted by tests."""

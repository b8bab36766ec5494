"""Tests of balance/report."""

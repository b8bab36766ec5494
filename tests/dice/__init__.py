"""Tests of balance/dice."""

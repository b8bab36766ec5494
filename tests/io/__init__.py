"""Tests of balance/io."""

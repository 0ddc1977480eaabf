"""Helpers shared by the test suites and the benchmarks."""

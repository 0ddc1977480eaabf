"""The recovery job: sweeps due timeouts, presence and abandonment; records service liveness."""

# Matches a sweep pass handles at once (claimers side by side on separate connections). Here,
# not in sweeper.py, so that the command line can show it without importing the service.
CONCURRENCY = 4

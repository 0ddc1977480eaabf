"""The recovery job: sweeps due timeouts, presence and abandonment; records service liveness."""

"""Operations: metrics, logs, deployment files, crash recovery and fuzzing."""

"""Grade a class with the mazekit API: one line per submission (README, "Grading a class")."""

import sys
from pathlib import Path

import mazekit

for config in sorted(Path(sys.argv[1]).glob("*/config.txt")):
    student = config.parent.name
    try:
        settings = mazekit.load_config(config)
        report = mazekit.validate(config.parent / settings.output_file, config=settings)
    except mazekit.MazeError as error:  # a broken config or a missing maze
        print(f"{student}: 0 ({error})")
        continue
    broken = ", ".join(f"{rule} {n}" for rule, n in report.counts.items())
    print(f"{student}: {100 if report.valid else 0}" + (f" ({broken})" if broken else ""))

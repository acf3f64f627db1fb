"""Reading the KEY=VALUE config file."""

MANDATORY = ("WIDTH", "HEIGHT", "ENTRY", "EXIT", "OUTPUT_FILE", "PERFECT")


class ConfigError(Exception):
    """Anything wrong in the config file."""


def _coords(key, text):
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise ConfigError(f"{key} must be x,y, got '{text}'")
    return int(parts[0]), int(parts[1])


def read_config(path):
    values = {}
    with open(path) as handle:
        for number, line in enumerate(handle, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if "=" not in line:
                raise ConfigError(f"line {number}: expected KEY=VALUE")
            key, value = (part.strip() for part in line.split("=", 1))
            values[key.upper()] = value
    for key in MANDATORY:
        if key not in values:
            raise ConfigError(f"missing key {key}")
    config = {"OUTPUT_FILE": values["OUTPUT_FILE"]}
    for key in ("WIDTH", "HEIGHT"):
        if not values[key].isdigit() or int(values[key]) < 2:
            raise ConfigError(f"{key} must be an integer of at least 2")
        config[key] = int(values[key])
    if values["PERFECT"] not in ("True", "False"):
        raise ConfigError("PERFECT must be True or False")
    config["PERFECT"] = values["PERFECT"] == "True"
    if values.get("SEED"):  # SEED= left blank: a random maze
        config["SEED"] = int(values["SEED"])
    for key in ("ENTRY", "EXIT"):
        x, y = _coords(key, values[key])
        if x >= config["WIDTH"] or y >= config["HEIGHT"]:
            raise ConfigError(f"{key} ({x},{y}) is outside the maze")
        config[key] = (x, y)
    if config["ENTRY"] == config["EXIT"]:
        raise ConfigError("ENTRY and EXIT must differ")
    from mazegen.generator import pattern_cells

    for key in ("ENTRY", "EXIT"):
        if config[key] in pattern_cells(config["WIDTH"], config["HEIGHT"]):
            raise ConfigError(f"{key} is on the 42 pattern")
    return config

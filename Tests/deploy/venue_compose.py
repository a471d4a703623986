#!/usr/bin/env python3
"""deploy/venue/compose.yaml read the way a compose engine reads it (PyYAML, then `${NAME:?message}` interpolation as
the Compose specification defines it): exits 1 naming each problem unless

- it is YAML with one service, built from deploy/Dockerfile (which exists) with the repository as the context;
- without COURTSIDE_UPSTREAM or COURTSIDE_UPSTREAM_TOKEN set, interpolation stops with a message naming the variable
  (a venue without an upstream would silently relay nothing);
- with both set, they reach the container's environment unchanged, and every COURTSIDE_* name in the file (the
  commented ones too) is a setting `courtside serve --help` lists;
- the journal's directory (/var/lib/courtside, the image's COURTSIDE_DATA) is on a named volume the file declares, and
  the LAN port 8080 is published.

Usage: venue_compose.py COMPOSE_FILE HELP_TEXT_FILE
"""

import os
import re
import sys

import yaml

REQUIRED = ("COURTSIDE_UPSTREAM", "COURTSIDE_UPSTREAM_TOKEN")
PATTERN = re.compile(r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?::\?(?P<error>[^}]*))?\}")


class Unset(Exception):
    pass


def interpolate(value, variables):
    """The Compose specification's `${NAME}` and `${NAME:?error}` (the only forms the file uses)."""
    if isinstance(value, dict):
        return {key: interpolate(item, variables) for key, item in value.items()}
    if isinstance(value, list):
        return [interpolate(item, variables) for item in value]
    if not isinstance(value, str):
        return value

    def one(match):
        name = match.group("name")
        if variables.get(name):
            return variables[name]
        if match.group("error") is not None:
            raise Unset(f"{name}: {match.group('error')}")
        return ""

    return PATTERN.sub(one, value)


def main():
    compose_path, help_path = sys.argv[1], sys.argv[2]
    problems = []
    text = open(compose_path, encoding="utf-8").read()
    document = yaml.safe_load(text)
    services = document.get("services", {})
    if len(services) != 1:
        problems.append(f"expected one service, found {sorted(services)}")
    name, service = next(iter(services.items()))
    build = service.get("build", {})
    context = os.path.normpath(os.path.join(os.path.dirname(compose_path), build.get("context", ".")))
    dockerfile = os.path.join(context, build.get("dockerfile", "Dockerfile"))
    if not os.path.isfile(dockerfile) or not dockerfile.endswith("deploy/Dockerfile"):
        problems.append(f"{name}: builds from {dockerfile}, not the repository's deploy/Dockerfile")
    for missing in REQUIRED:
        variables = {other: "x" for other in REQUIRED if other != missing}
        try:
            interpolate(service, variables)
            problems.append(f"{name}: starts without {missing}")
        except Unset as error:
            if missing not in str(error):
                problems.append(f"without {missing}, the message does not name it: {error}")
    values = {"COURTSIDE_UPSTREAM": "wss://scores.example.org", "COURTSIDE_UPSTREAM_TOKEN": "vk3p9x2ab.0123"}
    resolved = interpolate(service, values)
    environment = resolved.get("environment", {})
    for variable, value in values.items():
        if environment.get(variable) != value:
            problems.append(f"{name}: {variable} reaches the container as {environment.get(variable)!r}")
    settings = open(help_path, encoding="utf-8").read()
    for variable in sorted(set(re.findall(r"COURTSIDE_[A-Z_]+", text))):
        if variable not in settings:
            problems.append(f"{variable} is not a courtside setting")
    volumes = resolved.get("volumes", [])
    data = [v for v in volumes if v.split(":")[1:2] == ["/var/lib/courtside"]]
    if not data or data[0].split(":")[0] not in (document.get("volumes") or {}):
        problems.append(f"{name}: /var/lib/courtside is not on a declared named volume: {volumes}")
    if "8080:8080" not in [str(port) for port in resolved.get("ports", [])]:
        problems.append(f"{name}: port 8080 is not published on the venue's network")
    for problem in problems:
        print(f"deploy/venue/compose.yaml: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

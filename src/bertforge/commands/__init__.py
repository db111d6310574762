"""The `bertforge` verbs, one module each; every module registers its own sub-command
(`register(verbs)`) and maps the parsed arguments to library calls. Defaults and help
live in the library: settings dataclasses (`options.add_options`) or the signatures of
the functions called (`options.default_of`)."""

from . import analysis, doctor, finetune, models, pii, pretrain, redact, serve, toy

# in the order `bertforge --help` lists them
MODULES = (models, pretrain, finetune, analysis, redact, pii, serve, doctor, toy)

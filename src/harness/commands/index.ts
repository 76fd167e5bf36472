export { BUILTIN_COMMANDS, builtinCommand, unknownCommandMessage, type BuiltinCommand } from './builtin-commands.ts';
export { parseCommandFile, type ProjectCommand, type CommandProblem, type CommandScope } from './command-file.ts';
export { expandCommand, commandWords } from './expand.ts';
export { builtinOutput, type BuiltinView } from './builtin-output.ts';
export { loadCommands, PROJECT_COMMANDS_DIR, type CommandCatalog } from './load-commands.ts';
export { parseSlashCommand, needsNoModel, lastRunCleared } from './parse-slash.ts';

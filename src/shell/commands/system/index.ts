import type { CommandFn } from '../../context.js';
import { hostCommands } from './host.js';
import { nl } from './nl.js';
import { whichCommands } from './which.js';

/** The small commands agents reach for that say what the shell and its host are, and `nl`. */
export const systemCommands: Record<string, CommandFn> = { ...hostCommands, ...whichCommands, nl };

/** The CLI's commands, loaded lazily so `loopscope stats` never pays for the API server. */
export interface Command {
  run(argv: string[]): Promise<number>;
  usage: string;
}

export interface CommandEntry {
  summary: string;
  load: () => Promise<Command>;
}

export const commandTable: Record<string, CommandEntry> = {};

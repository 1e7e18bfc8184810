/**
 * What a scheduled job's handler file may export besides `handler`: its own options for
 * `npm run job -- <name> [options]` (local/jobs.ts). Without it the command runs the handler
 * as the schedule does and takes no options.
 */
export interface JobCommand {
  /** The options after the job name, for the usage text: `[--date YYYY-MM-DD]`. */
  usage: string;
  /** One run with these arguments (throws on bad ones); resolves to the line to print. */
  run(args: string[], nowMs: number): Promise<string>;
}

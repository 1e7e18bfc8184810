/**
 * `npm run job -- <name> [options]`: run a scheduled job once against the configured store,
 * exactly as its Lambda does on its schedule. Jobs register themselves in `jobs` below.
 */
const jobs: Record<string, { summary: string; run: (args: string[]) => Promise<void> }> = {};

async function main(): Promise<void> {
  const [name, ...args] = process.argv.slice(2);
  const job = name ? jobs[name] : undefined;
  if (!job) {
    const known = Object.entries(jobs).map(([jobName, entry]) => `  ${jobName}  ${entry.summary}`);
    console.error(`usage: npm run job -- <name> [options]\n${known.length ? `jobs:\n${known.join('\n')}` : 'no jobs are defined yet'}`);
    process.exit(2);
  }
  await job.run(args);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

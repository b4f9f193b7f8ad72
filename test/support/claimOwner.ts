// A process that claims the embedded database in a folder (argv[2]), as the server and the CLI do, and reports on
// stdout what it found: {"owned":true} or the live owner's pid. An owner keeps the lock until its stdin closes.
import { claimOwnership } from '../../infra/db/ownership.js';

const claim = await claimOwnership(process.argv[2]!, `claimer ${process.pid}`);
process.stdout.write(`${JSON.stringify(claim.owned ? { owned: true, pid: process.pid } : { owned: false, owner: claim.info?.pid })}\n`);
if (claim.owned) {
  process.stdin.resume();
  process.stdin.once('end', () => void claim.release().then(() => process.exit(0)));
}

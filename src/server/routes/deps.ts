import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { LiveHub } from '../services/live.ts';
import type { PushSender } from '../services/push.ts';
import type { CodeSender } from '../services/login.ts';
import type { OnReplay } from '../services/once.ts';

/** What every group of handlers is given: no globals, so tests build apps side by side. */
export interface RouteDeps {
  db: Db;
  config: Config;
  /** Where login codes go (the server log by default). */
  codeSender: CodeSender;
  /** The process's live streams (services/live.ts). */
  live: LiveHub;
  /** Pushes new notices to subscribed devices (services/push.ts). */
  push: PushSender;
  /** Told of each write replayed by its client_id (for /metrics); absent: metrics are off. */
  onReplay?: OnReplay | undefined;
}

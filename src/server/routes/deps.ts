import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';

/** What every route plugin is given: no globals, so tests build apps side by side. */
export interface RouteDeps {
  db: Db;
  config: Config;
}

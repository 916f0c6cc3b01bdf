// What every request handler can reach: config, database, clock, logger and the services that
// tests swap (password hashing cost, captcha store), and the delivery of job notices to devices.
import type { Config } from './config.ts';
import type { Db } from './db/index.ts';
import type { Clock } from './core/clock.ts';
import type { DeviceDelivery } from './core/delivery.ts';
import type { Logger } from './core/logger.ts';
import type { PasswordHasher } from './core/passwords.ts';
import type { CaptchaService } from './modules/base/captcha.service.ts';

export interface AppContext {
  config: Config;
  db: Db;
  clock: Clock;
  logger: Logger;
  /** HS256 key for access tokens. */
  jwtSecret: string;
  passwords: PasswordHasher;
  captcha: CaptchaService;
  /** "Deliver to device X": routes notify the hub holding a device's connection through it (server/core/delivery.ts). */
  delivery: DeviceDelivery;
  /** The geometry job runner of this process, when one runs (server/modules/geo-jobs): told when a job was queued. */
  geoJobs?: { wake(): void };
}

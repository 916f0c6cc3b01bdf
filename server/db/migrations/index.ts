// Migrations are code, listed here in order; names sort as they must run.
import type { Migration } from 'kysely';
import * as m0001 from './0001_init.ts';
import * as m0020 from './0020_ops.ts';
import * as m0030 from './0030_orders.ts';
import * as m0050 from './0050_design.ts';
import * as m0010 from './0010_sys.ts';
import * as m0060 from './0060_seed_keys.ts';
import * as m0070 from './0070_device_hub.ts';
import * as m0080 from './0080_locations.ts';
import * as m0090 from './0090_die_radius.ts';
import * as m0100 from './0100_rate_attempts.ts';
import * as m0101 from './0101_redact_log.ts';
import * as m0102 from './0102_rate_pending.ts';
import * as m0103 from './0103_rights_version.ts';
import * as m0110 from './0110_order_lifecycle.ts';
import * as m0120 from './0120_model_teeth.ts';
import * as m0130 from './0130_ai_design.ts';
import * as m0140 from './0140_ai_vendor.ts';
import * as m0150 from './0150_partner_api.ts';
import * as m0160 from './0160_partner_callbacks.ts';
import * as m0170 from './0170_calibration.ts';
import * as m0180 from './0180_habby_redirect.ts';
import * as m0190 from './0190_drop_partner_redirect.ts';
import * as m0250 from './0250_chat.ts';
import * as m0240 from './0240_helper_modules.ts';
import * as m0220 from './0220_plugin_demo.ts';
import * as m0230 from './0230_plugins.ts';
import * as m0210 from './0210_hub_nodes.ts';
import * as m0260 from './0260_ai_report.ts';

export const migrations: Record<string, Migration> = {
  '0001_init': m0001,
  '0020_ops': m0020,
  '0010_sys': m0010,
  '0030_orders': m0030,
  '0050_design': m0050,
  '0060_seed_keys': m0060,
  '0070_device_hub': m0070,
  '0080_locations': m0080,
  '0090_die_radius': m0090,
  '0100_rate_attempts': m0100,
  '0101_redact_log': m0101,
  '0102_rate_pending': m0102,
  '0103_rights_version': m0103,
  '0110_order_lifecycle': m0110,
  '0120_model_teeth': m0120,
  '0130_ai_design': m0130,
  '0140_ai_vendor': m0140,
  '0150_partner_api': m0150,
  '0160_partner_callbacks': m0160,
  '0170_calibration': m0170,
  '0180_habby_redirect': m0180,
  '0190_drop_partner_redirect': m0190,
  '0250_chat': m0250,
  '0240_helper_modules': m0240,
  '0220_plugin_demo': m0220,
  '0230_plugins': m0230,
  '0210_hub_nodes': m0210,
  '0260_ai_report': m0260,
};

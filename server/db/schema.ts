// Table types for Kysely. Times: createTime/updateTime are "YYYY-MM-DD HH:mm:ss" (UTC) text;
// internal instants (expiry, attempts) are epoch milliseconds.
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** A nullable column that inserts may leave out (added to a table that already had inserts). */
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface BaseSysUserTable {
  id: Generated<number>;
  username: string;
  password: string;
  /** Bumped on every password change; tokens carry it, so old ones stop working. */
  passwordVersion: Generated<number>;
  name: string | null;
  nickName: string | null;
  headImg: string | null;
  phone: string | null;
  email: string | null;
  remark: string | null;
  status: Generated<number>;
  departmentId: number | null;
  /** The user's preferences as JSON (common/habby.ts; migration 0180), null until first saved. */
  habby: Optional<string>;
  createTime: string;
  updateTime: string;
}

/** A one-time sign-in code (migration 0180): its SHA-256, whom it signs in, where to, until when (epoch ms). */
export interface BaseRedirectTicketTable {
  id: Generated<number>;
  codeHash: string;
  userId: number;
  /** The user's password version when issued: a later password change voids the code. */
  passwordVersion: number;
  target: string;
  expiresAt: number;
  usedAt: number | null;
  createTime: string;
  /** The partner entry that issued it (migration 0190), or null: signs in only while it still acts for the user. */
  partnerId: number | null;
}

export interface BaseSysRoleTable {
  id: Generated<number>;
  name: string;
  label: string;
  remark: string | null;
  relevance: Generated<number>;
  createTime: string;
  updateTime: string;
}

export interface BaseSysUserRoleTable {
  id: Generated<number>;
  userId: number;
  roleId: number;
}

export interface BaseSysMenuTable {
  id: Generated<number>;
  parentId: number | null;
  name: string;
  router: string | null;
  perms: string | null;
  type: number;
  icon: string | null;
  orderNum: Generated<number>;
  viewPath: string | null;
  keepAlive: Generated<number>;
  isShow: Generated<number>;
  createTime: string;
  updateTime: string;
}

/** Seeded menu entries already applied (server/db/seed-menu-sync.ts). */
export interface BaseSysSeedTable {
  key: string;
  menuId: number | null;
  createTime: string;
}

export interface BaseSysRoleMenuTable {
  id: Generated<number>;
  roleId: number;
  menuId: number;
}

export interface BaseSysLogTable {
  id: Generated<number>;
  userId: number | null;
  username: string | null;
  action: string;
  method: string;
  status: number;
  timeMs: number;
  ip: string;
  params: string | null;
  createTime: string;
}

export interface BaseSysDepartmentTable {
  id: Generated<number>;
  name: string;
  parentId: number | null;
  orderNum: Generated<number>;
  /** Location for the dashboard map (migration 0080): city, and degrees latitude -90..90, longitude -180..180. */
  city: Optional<string>;
  latitude: Optional<number>;
  longitude: Optional<number>;
  createTime: string;
  updateTime: string;
}

/** Departments a role may see the data of (its data scope). */
export interface BaseSysRoleDepartmentTable {
  id: Generated<number>;
  roleId: number;
  departmentId: number;
}

/** A deleted row of a resource with a recycle bin; `data` is JSON `{ row, related, hidden }`. */
export interface RecycleDataTable {
  id: Generated<number>;
  entity: string;
  prefix: string;
  tableName: string;
  rowId: number;
  data: string;
  userId: number | null;
  userName: string | null;
  createTime: string;
}

/** A login and every access/refresh token rotated from it (the "family"). */
export interface BaseSessionTable {
  id: string;
  userId: number;
  passwordVersion: number;
  createdAt: number;
  revokedAt: number | null;
}

export interface BaseRefreshTokenTable {
  id: Generated<number>;
  sessionId: string;
  /** sha256 of the opaque token; the token itself is never stored. */
  tokenHash: string;
  expiresAt: number;
  usedAt: number | null;
  createdAt: number;
}

/** One attempt admitted to an expensive check within a rate-limit bucket (core/rate-limit.ts). */
export interface BaseRateAttemptTable {
  id: Generated<number>;
  bucket: string;
  at: number;
  /** 1 while the attempt's check runs; 0 once it failed (a success deletes it). */
  pending: Generated<number>;
}

/** One row: moved forward by triggers on every change to what users hold (see rights-cache.ts). */
export interface BaseRightsVersionTable {
  v: number;
}

export interface BaseCaptchaTable {
  id: string;
  answer: string;
  expiresAt: number;
}

/** An uploaded file: one row per upload; `key` (sha256) names the stored bytes. */
export interface SpaceInfoTable {
  id: Generated<number>;
  url: string;
  key: string;
  name: string;
  size: number;
  mime: string;
  kind: string;
  classifyId: number | null;
  userId: number;
  triangleCount: number | null;
  createTime: string;
  updateTime: string;
}

/** A folder of the file space. */
export interface SpaceTypeTable {
  id: Generated<number>;
  name: string;
  parentId: number | null;
  userId: number;
  createTime: string;
  updateTime: string;
}

export interface OrderInfoTable {
  id: Generated<number>;
  caseNo: string;
  patientName: string;
  remark: string | null;
  deliveryTime: string | null;
  enableAI: Generated<number>;
  aiStatus: Generated<number>;
  status: Generated<number>;
  designerId: number;
  creatorId: number;
  upperFileId: number | null;
  lowerFileId: number | null;
  occlusionFileId: number | null;
  designStartTime: string | null;
  designEndTime: string | null;
  processStartTime: string | null;
  processEndTime: string | null;
  /** The generated denture base (space file), saveDentureBase. */
  baseFileId: number | null;
  /** JSON DrcResult (common/order-lifecycle.ts) of a design version, updateDRC. */
  drc: string | null;
  /** JSON Prescription (common/prescription.ts) of this order; null: the lab's default (param aiPrescription). */
  prescription: string | null;
  /** Why the last automatic design failed (aiStatus fail). */
  aiError: string | null;
  /** When the automatic design was last submitted, and when that run ended. */
  aiSubmitTime: string | null;
  aiEndTime: string | null;
  /** The delivery address chosen (user_address of the creator), or null. */
  addressId: number | null;
  createTime: string;
  updateTime: string;
}

export interface DeviceInfoTable {
  id: Generated<number>;
  devicename: string;
  personnelId: number | null;
  status: Generated<number>;
  remark: string | null;
  enableAI: Generated<number>;
  /** Comma-separated wire diameters in mm, e.g. "0.7,0.8". */
  diameters: string;
  memory: number;
  /** Radius of the bend arcs' centreline, mm (migration 0090, default 1). */
  dieRadius: Generated<number>;
  /** The bending head, JSON HeadBox[] (migration 0170); null: the default head. */
  head: Optional<string>;
  keyHash: string;
  keyHint: string;
  /** Location for the dashboard map (migration 0080): city, and degrees latitude -90..90, longitude -180..180. */
  city: Optional<string>;
  latitude: Optional<number>;
  longitude: Optional<number>;
  createTime: string;
  updateTime: string;
}

export interface DeviceUserTable {
  id: Generated<number>;
  deviceId: number;
  userId: number;
}

/** A bend job for a device (device hub): queued -> sent -> acked -> bending -> done | failed, or cancelled. */
export interface DeviceJobTable {
  id: Generated<number>;
  jobId: string;
  deviceId: number;
  userId: number;
  orderId: number | null;
  /** JSON { type, diameter, material }. */
  wire: string;
  /** JSON [{ feed, rotate, bend }]. */
  steps: string;
  stepCount: number;
  status: string;
  step: Generated<number>;
  sendCount: Generated<number>;
  /** Epoch ms of the last send (resend after 10 s without ack). */
  lastSentAt: number | null;
  errorCode: string | null;
  errorMessage: string | null;
  bendMs: number | null;
  createTime: string;
  updateTime: string;
}

export interface DeviceJobLogTable {
  id: Generated<number>;
  jobId: string;
  status: string;
  detail: string | null;
  /** Epoch ms. */
  at: number;
  createTime: string;
}

/** A springback table that was replaced (migration 0170): kept to be listed and restored. */
export interface DeviceConfigHistoryTable {
  id: Generated<number>;
  deviceId: number;
  diameter: number;
  /** JSON [[angle, springback], ...]. */
  springback: string;
  remark: string | null;
  /** 'form', 'calibration' or 'restore': what replaced it. */
  replacedBy: string;
  /** Who replaced it; null for the machine's calibration app. */
  userId: number | null;
  createTime: string;
}

/** A device's connection as the hub last saw it. */
export interface DeviceLinkTable {
  deviceId: number;
  online: Generated<number>;
  state: string | null;
  detail: string | null;
  serial: string | null;
  firmware: string | null;
  diameters: string | null;
  memory: number | null;
  lastSeenAt: number | null;
  statusTime: string | null;
  /** The hub (process) holding its connection now, or last. */
  hub: string | null;
}

/** A hub's heartbeat: its links count as online while it beats. */
export interface DeviceHubNodeTable {
  id: string;
  seenAt: number;
}

export interface DeviceConfigTable {
  id: Generated<number>;
  deviceId: number;
  diameter: number;
  /** JSON [[angle, springback], ...]. */
  springback: string;
  remark: string | null;
  createTime: string;
  updateTime: string;
}

export interface DeviceApiConfigTable {
  id: Generated<number>;
  name: string;
  url: string;
  key: string | null;
  departmentId: number | null;
  enabled: Generated<number>;
  remark: string | null;
  /** 'partner' | 'aiService' (common/api-config.ts). */
  kind: Generated<string>;
  /** The HMAC secret of signed calls (server/core/signature.ts): shown once, never read back. */
  secret: string | null;
  /** A partner's allowed open calls, comma-separated (common/partner-api.ts); null: none but `test`. */
  calls: string | null;
  /** Where a partner entry's order and AI status changes are posted (server/modules/callbacks); null: none. */
  callbackUrl: string | null;
  createTime: string;
  updateTime: string;
}

/** A callback to a partner (server/modules/callbacks/queue.ts): one event for one entry. */
export interface PartnerDeliveryTable {
  id: Generated<number>;
  configId: number;
  orderId: number;
  /** 'orderStatus' | 'aiStatus' (common/callbacks.ts). */
  event: string;
  /** JSON of the event, without its delivery id (added when posted). */
  payload: string;
  /** 'pending' | 'delivered' | 'failed'. */
  state: Generated<string>;
  attempts: Generated<number>;
  /** When a pending row is due (ms). */
  nextAttemptAt: number;
  /** When it was queued or sent again by hand (ms): the age limit counts from it. */
  queuedAt: number;
  /** The deliverer posting it, until leaseUntil (ms). */
  owner: string | null;
  leaseUntil: number | null;
  /** The last answer's HTTP status, or null when none came. */
  lastStatus: number | null;
  /** Why the last attempt failed (truncated). */
  lastError: string | null;
  deliveredTime: string | null;
  createTime: string;
  updateTime: string;
}

/** An order a partner created, by its own order number (unique per entry). */
export interface PartnerOrderTable {
  id: Generated<number>;
  configId: number;
  partnerOrderNo: string;
  orderId: number;
  createTime: string;
}

/** A bend a partner sent, by its idempotency key (unique per entry). */
export interface PartnerBendTable {
  id: Generated<number>;
  configId: number;
  idempotencyKey: string;
  jobId: string;
  createTime: string;
}

/** A nonce a signed call used, unique per API configuration entry (replays are refused). */
export interface ApiNonceTable {
  id: Generated<number>;
  configId: number;
  nonce: string;
  /** When it was used (ms). */
  at: number;
}

/** The order whose automatic design an outside AI service holds (server/modules/ai/vendor.ts). */
export interface AiVendorJobTable {
  orderId: number;
  configId: number;
  /** The geo job that sent it: the callback names it. */
  jobId: number;
  /** When the answer is no longer awaited (ms). */
  deadline: number;
  sentTime: string;
}

/** The automatic design's report of the order's last stored AI design (common/ai-report.ts). */
export interface OrderAiReportTable {
  orderId: number;
  /** The design version (design_data.version) it came with. */
  version: number;
  /** JSON AiReport. */
  report: string;
  createTime: string;
}

/** A named setting (`keyName` unique); dataType 0 text, 1 rich text (HTML), 2 file (URL). */
export interface BaseSysParamTable {
  id: Generated<number>;
  name: string;
  keyName: string;
  data: string | null;
  dataType: Generated<number>;
  remark: string | null;
  createTime: string;
  updateTime: string;
}

/** Internal key-value settings (e.g. `logKeep`), not shown as params. */
export interface BaseSysConfTable {
  cKey: string;
  cValue: string;
}

export interface DictTypeTable {
  id: Generated<number>;
  name: string;
  key: string;
  createTime: string;
  updateTime: string;
}

export interface DictInfoTable {
  id: Generated<number>;
  typeId: number;
  name: string;
  value: string | null;
  parentId: number | null;
  orderNum: Generated<number>;
  remark: string | null;
  createTime: string;
  updateTime: string;
}

/** A scheduled built-in job. taskType 0 cron, 1 every `every` ms; type 0 system, 1 user;
 * status 0 stopped, 1 running. Times are "YYYY-MM-DD HH:mm:ss" UTC. */
export interface TaskInfoTable {
  id: Generated<number>;
  name: string;
  taskType: Generated<number>;
  cron: string | null;
  every: number | null;
  type: Generated<number>;
  status: Generated<number>;
  service: string;
  data: string | null;
  nextRunTime: string | null;
  lastRunTime: string | null;
  limit: number | null;
  runCount: Generated<number>;
  startDate: string | null;
  endDate: string | null;
  remark: string | null;
  createTime: string;
  updateTime: string;
}

/** One run of a task: status 1 success, 0 failure; trigger "schedule" or "manual". */
export interface TaskLogTable {
  id: Generated<number>;
  taskId: number;
  status: number;
  trigger: string;
  timeMs: number;
  detail: string | null;
  createTime: string;
}

export interface BaseSysReleaseTable {
  id: Generated<number>;
  version: string;
  title: string;
  content: string | null;
  forceUpdate: Generated<number>;
  releaseTime: string;
  createTime: string;
  updateTime: string;
}

export interface BaseSysReleaseReadTable {
  id: Generated<number>;
  userId: number;
  releaseId: number;
  createTime: string;
}

export interface BaseSysArticleCategoryTable {
  id: Generated<number>;
  name: string;
  parentId: number | null;
  orderNum: Generated<number>;
  createTime: string;
  updateTime: string;
}

/** A help article; status 1 published, 0 draft. */
export interface BaseSysArticleTable {
  id: Generated<number>;
  categoryId: number | null;
  title: string;
  content: string | null;
  orderNum: Generated<number>;
  status: Generated<number>;
  createTime: string;
  updateTime: string;
}

/** A user's delivery address (server/modules/user/address.ts); region codes and names comma-separated. */
export interface UserAddressTable {
  id: Generated<number>;
  userId: number;
  /** Who receives deliveries there. */
  name: string;
  phone: string;
  regionCodes: string;
  regionNames: string;
  detail: string;
  isDefault: Generated<number>;
  createTime: string;
  updateTime: string;
}

/** A text saved by the editor demo pages (server/modules/demo/article.ts): format 'html' or 'markdown'. */
export interface DemoArticleTable {
  id: Generated<number>;
  userId: number;
  title: string;
  format: string;
  content: string;
  /** The sanitised HTML of the content (what is shown). */
  html: string;
  createTime: string;
  updateTime: string;
}

/** The editor's latest design document of an order (server/modules/design). */
export interface DesignDataTable {
  id: Generated<number>;
  orderId: number;
  version: number;
  schemaVersion: number;
  /** The document as JSON text. */
  data: string;
  userId: number;
  createTime: string;
  updateTime: string;
}

/** A server-side geometry job (server/modules/geo-jobs). */
export interface GeoJobTable {
  id: Generated<number>;
  kind: string;
  orderId: number | null;
  /** What within the order the job is about (a teeth job's jaw); null for one per order. */
  subject: Generated<string | null>;
  /** queued | running | done | failed */
  state: string;
  progress: Generated<number>;
  attempts: Generated<number>;
  error: string | null;
  /** JSON */
  input: string;
  /** JSON */
  result: string | null;
  /** The runner holding it while running, and until when (epoch ms). */
  owner: string | null;
  leaseUntil: number | null;
  createTime: string;
  startTime: string | null;
  endTime: string | null;
  updateTime: string;
}

export interface OrderStatusLogTable {
  id: Generated<number>;
  orderId: number;
  fromStatus: number | null;
  toStatus: number;
  reason: string;
  /** null: the server (a job ended, a machine finished). */
  userId: number | null;
  detail: string | null;
  createTime: string;
}

export interface OrderBiteTable {
  id: Generated<number>;
  orderId: number;
  jobId: number | null;
  /** auto | manual */
  source: string;
  /** JSON BiteResult (common/bite.ts). */
  result: string;
  createTime: string;
  updateTime: string;
}

/** The teeth of a model file's bytes for one jaw (the `teeth` job). */
export interface ModelTeethTable {
  id: Generated<number>;
  /** space_info.key (sha256 of the bytes). */
  fileKey: string;
  /** upper | lower */
  jaw: string;
  jobId: number | null;
  /** JSON StoredTeeth (common/teeth.ts). */
  teeth: string;
  createTime: string;
  updateTime: string;
}

export interface OrderModelVersionTable {
  id: Generated<number>;
  orderId: number;
  /** upper | lower */
  jaw: string;
  version: number;
  fileId: number;
  note: string | null;
  userId: number | null;
  createTime: string;
}

/** An order's conversation (migration 0250): its participants are the order's creator and designer. */
export interface ChatSessionTable {
  id: Generated<number>;
  orderId: number;
  createTime: string;
}

export interface ChatMessageTable {
  id: Generated<number>;
  sessionId: number;
  senderId: number;
  /** Trimmed plain text, never HTML. */
  text: string;
  /** When it was stored (epoch ms). */
  at: number;
  createTime: string;
}

/** A file of the file space a message refers to. */
export interface ChatAttachmentTable {
  id: Generated<number>;
  messageId: number;
  sessionId: number;
  fileId: number;
}

/** How far a user has read a session: the last message id seen. */
export interface ChatReadTable {
  id: Generated<number>;
  sessionId: number;
  userId: number;
  lastReadId: Generated<number>;
}

/** An open message stream and its last heartbeat (epoch ms). */
export interface ChatStreamTable {
  id: Generated<number>;
  userId: number;
  seenAt: number;
}

/** A live module of the AI coding helper (common/ai-code.ts). */
export interface HelperModuleTable {
  id: Generated<number>;
  name: string;
  tableName: string;
  label: string;
  /** ModuleDef, JSON. */
  definition: string;
  version: Generated<number>;
  groupMenuId: number | null;
  createBy: number | null;
  createTime: string;
  updateTime: string;
}

/** Installed plugins and configured built-ins (migration 0230). */
export interface PluginInfoTable {
  id: Generated<number>;
  key: string;
  name: string;
  version: string;
  builtIn: Generated<number>;
  status: Generated<number>;
  settings: string | null;
  manifest: string | null;
  menuIds: string | null;
  files: string | null;
  createTime: string;
  updateTime: string;
}

export interface Database {
  plugin_info: PluginInfoTable;
  partner_order: PartnerOrderTable;
  partner_bend: PartnerBendTable;
  geo_job: GeoJobTable;
  order_status_log: OrderStatusLogTable;
  order_bite: OrderBiteTable;
  order_model_version: OrderModelVersionTable;
  model_teeth: ModelTeethTable;
  base_sys_user: BaseSysUserTable;
  base_sys_role: BaseSysRoleTable;
  base_sys_user_role: BaseSysUserRoleTable;
  base_sys_menu: BaseSysMenuTable;
  base_sys_seed: BaseSysSeedTable;
  base_sys_role_menu: BaseSysRoleMenuTable;
  base_sys_log: BaseSysLogTable;
  base_session: BaseSessionTable;
  base_redirect_ticket: BaseRedirectTicketTable;
  base_refresh_token: BaseRefreshTokenTable;
  base_rate_attempt: BaseRateAttemptTable;
  base_rights_version: BaseRightsVersionTable;
  base_captcha: BaseCaptchaTable;
  base_sys_param: BaseSysParamTable;
  base_sys_conf: BaseSysConfTable;
  dict_type: DictTypeTable;
  dict_info: DictInfoTable;
  task_info: TaskInfoTable;
  task_log: TaskLogTable;
  base_sys_release: BaseSysReleaseTable;
  base_sys_release_read: BaseSysReleaseReadTable;
  base_sys_article_category: BaseSysArticleCategoryTable;
  base_sys_article: BaseSysArticleTable;
  space_info: SpaceInfoTable;
  space_type: SpaceTypeTable;
  order_info: OrderInfoTable;
  design_data: DesignDataTable;
  device_info: DeviceInfoTable;
  device_user: DeviceUserTable;
  device_config: DeviceConfigTable;
  device_config_history: DeviceConfigHistoryTable;
  device_api_config: DeviceApiConfigTable;
  api_nonce: ApiNonceTable;
  partner_delivery: PartnerDeliveryTable;
  ai_vendor_job: AiVendorJobTable;
  order_ai_report: OrderAiReportTable;
  device_job: DeviceJobTable;
  device_job_log: DeviceJobLogTable;
  device_link: DeviceLinkTable;
  device_hub_node: DeviceHubNodeTable;
  base_sys_department: BaseSysDepartmentTable;
  base_sys_role_department: BaseSysRoleDepartmentTable;
  recycle_data: RecycleDataTable;
  chat_session: ChatSessionTable;
  chat_message: ChatMessageTable;
  chat_attachment: ChatAttachmentTable;
  chat_read: ChatReadTable;
  chat_stream: ChatStreamTable;
  helper_module: HelperModuleTable;
  user_address: UserAddressTable;
  demo_article: DemoArticleTable;
}

export type User = Selectable<BaseSysUserTable>;
export type NewUser = Insertable<BaseSysUserTable>;
export type UserUpdate = Updateable<BaseSysUserTable>;
export type Menu = Selectable<BaseSysMenuTable>;
export type NewMenu = Insertable<BaseSysMenuTable>;

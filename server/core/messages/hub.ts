// Messages of the device hub's calls (/admin/design/bend, getQueueList, cancel, userDeviceList).
import type { Catalog } from './types.ts';

export const hubMessages = {
  hubNoDevice: {
    en: 'Add failed, no device selected',
    zh: '添加失败，未选择设备',
    de: 'Hinzufügen fehlgeschlagen, kein Gerät ausgewählt',
  },
  hubNotBound: {
    en: 'The device is not bound. Please contact your administrator',
    zh: '设备未绑定，请联系管理员',
    de: 'Das Gerät ist nicht zugeordnet. Bitte wenden Sie sich an Ihren Administrator',
  },
  hubNoWire: {
    en: 'Bending failed, no bow wire was selected',
    zh: '弯制失败，未选择弓丝',
    de: 'Biegen fehlgeschlagen, kein Bogendraht ausgewählt',
  },
  hubDiameterMismatch: {
    en: 'Wire diameter mismatch: the device takes {diameters} mm, not {diameter} mm',
    zh: '弓丝直径不匹配：设备支持 {diameters} mm，而不是 {diameter} mm',
    de: 'Drahtdurchmesser passt nicht: das Gerät nimmt {diameters} mm, nicht {diameter} mm',
  },
  hubOverMemory: {
    en: 'Wire data over machine memory ({steps} steps, the device holds {memory})',
    zh: '弓丝数据超出机器内存（{steps} 步，设备最多 {memory} 步）',
    de: 'Drahtdaten überschreiten den Maschinenspeicher ({steps} Schritte, das Gerät fasst {memory})',
  },
  wireTypeUnknown: {
    en: '{field} is invalid: "{type}" is not a wire type (one of {types})',
    zh: '{field} 不合法："{type}" 不是弓丝类型（可选：{types}）',
    de: '{field} ist ungültig: „{type}“ ist kein Drahttyp (einer von {types})',
  },
  hubTooManySteps: {
    en: 'A bending program holds at most {max} steps (this one has {steps})',
    zh: '弯制程序最多 {max} 步（当前 {steps} 步）',
    de: 'Ein Biegeprogramm hat höchstens {max} Schritte (dieses hat {steps})',
  },
  hubStepLimit: {
    en: '{field} is invalid: {value} is outside the machine limits {range}',
    zh: '{field} 不合法：{value} 超出机器范围 {range}',
    de: '{field} ist ungültig: {value} liegt außerhalb der Maschinengrenzen {range}',
  },
  hubJobNotFound: {
    en: 'The bending job does not exist',
    zh: '弯制任务不存在',
    de: 'Der Biegeauftrag existiert nicht',
  },
  hubJobOnDevice: {
    en: 'The job is {status} on the device; it can be cancelled once the device has been offline for {minutes} minutes',
    zh: '任务在设备上处于 {status} 状态；设备离线满 {minutes} 分钟后才可取消',
    de: 'Der Auftrag ist auf dem Gerät im Status {status}; er kann storniert werden, sobald das Gerät {minutes} Minuten offline ist',
  },
  hubJobStarted: {
    en: 'The job can no longer be cancelled: it is {status}',
    zh: '任务已无法取消：当前状态为 {status}',
    de: 'Der Auftrag kann nicht mehr storniert werden: Status {status}',
  },
  // A machine's calibration app (server/modules/device/calibration.routes.ts).
  badDeviceKey: { en: 'Device or key incorrect', zh: '设备或密钥不正确', de: 'Gerät oder Schlüssel falsch' },
  tooManyDeviceLogins: {
    en: 'Too many failed device sign-ins, try again in 15 minutes',
    zh: '设备登录失败次数过多，请 15 分钟后再试',
    de: 'Zu viele fehlgeschlagene Geräteanmeldungen, bitte in 15 Minuten erneut versuchen',
  },
  tooManyCalibrations: {
    en: 'Too many calibration uploads for this device, try again in 15 minutes',
    zh: '该设备的校准上传过于频繁，请 15 分钟后再试',
    de: 'Zu viele Kalibrierungen für dieses Gerät, bitte in 15 Minuten erneut versuchen',
  },
  springbackTableInvalid: {
    en: '{field} is invalid: {reason}',
    zh: '{field} 不合法：{reason}',
    de: '{field} ist ungültig: {reason}',
  },
  hubCollision: {
    en: 'Step {step}: the bending path collided with the machine and was skipped',
    zh: '第 {step} 步：折弯路径与机器发生碰撞，已跳过',
    de: 'Schritt {step}: Der Biegeweg ist mit der Maschine kollidiert und wurde übersprungen',
  },
} satisfies Catalog;

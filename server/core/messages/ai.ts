// Messages of the automatic design (server/modules/ai): prescriptions and the AI wire rule.
import type { Catalog } from './types.ts';

export const aiMessages = {
  jawUpper: { en: 'upper jaw', zh: '上颌', de: 'Oberkiefer' },
  jawLower: { en: 'lower jaw', zh: '下颌', de: 'Unterkiefer' },
  wireLabialBow: { en: 'labial bow', zh: '唇弓', de: 'Labialbogen' },
  wireSingleArmClasp: { en: 'single-arm clasp', zh: '单臂卡环', de: 'einarmige Klammer' },
  wireArrowClasp: { en: 'arrow clasp', zh: '箭头卡环', de: 'Pfeilklammer' },
  wireWraparoundBow: { en: 'wraparound bow', zh: '环绕弓', de: 'Umlaufbogen' },
  prescriptionTeethCount: {
    en: 'Prescription, {jaw}: a {wire} goes on {count} teeth, not on {teeth}',
    zh: '处方（{jaw}）：{wire}需要 {count} 颗牙，而不是 {teeth}',
    de: 'Verordnung, {jaw}: {wire} sitzt auf {count} Zähnen, nicht auf {teeth}',
  },
  prescriptionWrongJaw: {
    en: 'Prescription, {jaw}: the {wire} is on teeth {teeth}, which are not all teeth of the {jaw}',
    zh: '处方（{jaw}）：{wire}所在的牙 {teeth} 不全属于{jaw}',
    de: 'Verordnung, {jaw}: {wire} sitzt auf den Zähnen {teeth}, die nicht alle zum {jaw} gehören',
  },
  prescriptionNotNeighbours: {
    en: 'Prescription, {jaw}: the {wire} needs two neighbouring teeth, not {teeth}',
    zh: '处方（{jaw}）：{wire}需要两颗相邻的牙，而不是 {teeth}',
    de: 'Verordnung, {jaw}: {wire} braucht zwei benachbarte Zähne, nicht {teeth}',
  },
  prescriptionSameTeeth: {
    en: 'Prescription, {jaw}: the {wire} needs two different teeth, not {teeth}',
    zh: '处方（{jaw}）：{wire}需要两颗不同的牙，而不是 {teeth}',
    de: 'Verordnung, {jaw}: {wire} braucht zwei verschiedene Zähne, nicht {teeth}',
  },
  // The specification's message (section 8), with what to do.
  hubAiWire: {
    en: 'AI-generated wires cannot be matched with AI equipment: {device} does not take AI-generated wires; choose an AI-enabled device, or accept the wire in the design first',
    zh: 'AI生成的弓丝无法匹配AI设备：{device} 不接受 AI 生成的弓丝；请选择启用 AI 的设备，或先在设计中确认该弓丝',
    de: 'KI-generierte Drähte können keinem KI-Gerät zugeordnet werden: {device} nimmt keine KI-generierten Drähte; ein KI-fähiges Gerät wählen oder den Draht zuerst im Entwurf übernehmen',
  },
  // The AI service's callback (modules/ai/vendor-routes.ts).
  aiCallbackNotAwaited: {
    en: 'Order {orderId} is not waiting for a design from this AI service',
    zh: '订单 {orderId} 未在等待此 AI 服务的设计',
    de: 'Auftrag {orderId} wartet nicht auf einen Entwurf dieses KI-Dienstes',
  },
  aiCallbackJaw: {
    en: 'The design is for the {jaw}, which order {orderId} has no model of',
    zh: '设计针对{jaw}，但订单 {orderId} 没有该颌的模型',
    de: 'Der Entwurf ist für den {jaw}, von dem Auftrag {orderId} kein Modell hat',
  },
  aiCallbackWireJaw: {
    en: 'Wire {index} is on the {jaw}, outside the jaws of this callback',
    zh: '第 {index} 根弓丝位于{jaw}，不在本次回调的颌范围内',
    de: 'Draht {index} liegt am {jaw}, außerhalb der Kiefer dieses Rückrufs',
  },
  aiCallbackUnusable: {
    en: 'The design cannot be stored: {problem}',
    zh: '无法保存该设计：{problem}',
    de: 'Der Entwurf kann nicht gespeichert werden: {problem}',
  },
  aiCallbackRateLimited: {
    en: 'Too many callbacks from this AI service; try again later',
    zh: '此 AI 服务的回调过于频繁，请稍后再试',
    de: 'Zu viele Rückrufe dieses KI-Dienstes; später erneut versuchen',
  },
} satisfies Catalog;

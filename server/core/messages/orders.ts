// Messages of orders, devices and the file space.
import type { Catalog } from './types.ts';

export const ordersMessages = {
  // Uploads: the spec's "Upload failed, please try again" plus the reason.
  uploadNoFile: {
    en: 'Upload failed, please try again: no file was sent',
    zh: '上传失败，请重试：未收到文件',
    de: 'Hochladen fehlgeschlagen, bitte erneut versuchen: keine Datei empfangen',
  },
  uploadTooMany: {
    en: 'Upload failed, please try again: at most {max} files per upload',
    zh: '上传失败，请重试：每次最多上传 {max} 个文件',
    de: 'Hochladen fehlgeschlagen, bitte erneut versuchen: höchstens {max} Dateien pro Upload',
  },
  uploadTooLarge: {
    en: 'Upload failed, please try again: {name} is larger than {max} MB',
    zh: '上传失败，请重试：{name} 超过 {max} MB',
    de: 'Hochladen fehlgeschlagen, bitte erneut versuchen: {name} ist größer als {max} MB',
  },
  uploadTooManyParts: {
    en: 'Upload failed, please try again: the form has more than {max} parts',
    zh: '上传失败，请重试：表单的部分超过 {max} 个',
    de: 'Hochladen fehlgeschlagen, bitte erneut versuchen: das Formular hat mehr als {max} Teile',
  },
  uploadBodyTooLarge: {
    en: 'Upload failed, please try again: the request is larger than {max} MB',
    zh: '上传失败，请重试：请求大于 {max} MB',
    de: 'Hochladen fehlgeschlagen, bitte erneut versuchen: die Anfrage ist größer als {max} MB',
  },
  uploadNoFileName: {
    en: 'Upload failed, please try again: a file was sent without a name',
    zh: '上传失败，请重试：有文件没有文件名',
    de: 'Hochladen fehlgeschlagen, bitte erneut versuchen: eine Datei wurde ohne Namen gesendet',
  },
  uploadMalformed: {
    en: 'Upload failed, please try again: the request is not a valid multipart form',
    zh: '上传失败，请重试：请求不是有效的 multipart 表单',
    de: 'Hochladen fehlgeschlagen, bitte erneut versuchen: die Anfrage ist kein gültiges Multipart-Formular',
  },
  uploadBadKind: {
    en: 'Upload failed, please try again: unknown file kind "{kind}"',
    zh: '上传失败，请重试：未知的文件类型“{kind}”',
    de: 'Hochladen fehlgeschlagen, bitte erneut versuchen: unbekannte Dateiart „{kind}“',
  },
  uploadBadExtension: {
    en: 'Upload failed, please try again: {name} is not an accepted {kind} file (allowed: {allowed})',
    zh: '上传失败，请重试：{name} 不是允许的{kind}文件（允许：{allowed}）',
    de: 'Hochladen fehlgeschlagen, bitte erneut versuchen: {name} ist keine erlaubte {kind}-Datei (erlaubt: {allowed})',
  },
  uploadNotStl: {
    en: 'Upload failed, please try again: {name} is not a valid STL file ({detail})',
    zh: '上传失败，请重试：{name} 不是有效的 STL 文件（{detail}）',
    de: 'Hochladen fehlgeschlagen, bitte erneut versuchen: {name} ist keine gültige STL-Datei ({detail})',
  },
  // Why the STL kernel refused a file (workers/kernels/stl.ts error codes).
  stlEmpty: { en: 'the file is empty', zh: '文件为空', de: 'die Datei ist leer' },
  stlTooShort: { en: 'the file is too short', zh: '文件太短', de: 'die Datei ist zu kurz' },
  stlNotStl: { en: 'the file is not an STL file', zh: '文件不是 STL 文件', de: 'die Datei ist keine STL-Datei' },
  stlTruncated: { en: 'the file ends in the middle of a triangle', zh: '文件在三角形中间结束（不完整）', de: 'die Datei endet mitten in einem Dreieck' },
  stlCountMismatch: {
    en: 'the triangle count in the header does not match the file size',
    zh: '文件头中的三角形数量与文件大小不符',
    de: 'die Dreieckszahl im Kopf passt nicht zur Dateigröße',
  },
  stlMalformed: { en: 'ASCII STL syntax error', zh: 'ASCII STL 语法错误', de: 'ASCII-STL-Syntaxfehler' },
  stlNoTriangles: { en: 'the file has no triangles', zh: '文件中没有三角形', de: 'die Datei enthält keine Dreiecke' },
  stlNonFinite: { en: 'a coordinate is not a finite number', zh: '存在非有限数值的坐标', de: 'eine Koordinate ist keine endliche Zahl' },
  stlTooLarge: { en: 'the mesh is too large', zh: '网格过大', de: 'das Netz ist zu groß' },
  stlUnreadable: { en: 'the file could not be read', zh: '无法读取文件', de: 'die Datei konnte nicht gelesen werden' },
  fileInUse: {
    en: 'The file is used by order {caseNo} and cannot be deleted',
    zh: '该文件被订单 {caseNo} 使用，无法删除',
    de: 'Die Datei wird von Auftrag {caseNo} verwendet und kann nicht gelöscht werden',
  },
  folderNotEmpty: {
    en: 'The folder is not empty',
    zh: '文件夹不为空',
    de: 'Der Ordner ist nicht leer',
  },

  kindImage: { en: 'image', zh: '图片', de: 'Bild' },
  kindVideo: { en: 'video', zh: '视频', de: 'Video' },
  kindAudio: { en: 'audio', zh: '音频', de: 'Audio' },
  kindWord: { en: 'Word', zh: 'Word', de: 'Word' },
  kindExcel: { en: 'Excel', zh: 'Excel', de: 'Excel' },
  kindPpt: { en: 'PowerPoint', zh: 'PPT', de: 'PowerPoint' },
  kindPdf: { en: 'PDF', zh: 'PDF', de: 'PDF' },
  kindRar: { en: 'archive', zh: '压缩包', de: 'Archiv' },
  kindModel: { en: 'STL model', zh: 'STL 模型', de: 'STL-Modell' },
  kindFile: { en: 'file', zh: '文件', de: 'Datei' },

  // Orders
  orderModelRequired: {
    en: 'Please upload the upper or lower model',
    zh: '请上传上颌或下颌模型',
    de: 'Bitte laden Sie das Ober- oder Unterkiefermodell hoch',
  },
  orderBothModels: {
    en: 'Bite registration needs both the upper and the lower model',
    zh: '咬合配准需要同时上传上颌和下颌模型',
    de: 'Die Bissregistrierung benötigt das Ober- und das Unterkiefermodell',
  },
  orderModelNotStl: {
    en: 'Only STL files are accepted for the models ({field})',
    zh: '模型只接受 STL 文件（{field}）',
    de: 'Für die Modelle werden nur STL-Dateien akzeptiert ({field})',
  },

  orderAiNotRetryable: {
    en: 'Only a failed AI design can be retried',
    zh: '只有失败的 AI 设计可以重试',
    de: 'Nur eine fehlgeschlagene KI-Konstruktion kann wiederholt werden',
  },

  // Devices
  deviceOwnerOnly: {
    en: "Only the device's owner or a device administrator can do this",
    zh: '只有设备负责人或设备管理员可以执行此操作',
    de: 'Nur der Besitzer des Geräts oder ein Geräteadministrator kann dies tun',
  },
  deviceUserNotFound: {
    en: 'The user does not exist',
    zh: '用户不存在',
    de: 'Der Benutzer existiert nicht',
  },
  deviceDiameterUnsupported: {
    en: 'The device does not support a wire diameter of {diameter} mm',
    zh: '设备不支持 {diameter} mm 的钢丝直径',
    de: 'Das Gerät unterstützt keinen Drahtdurchmesser von {diameter} mm',
  },
} satisfies Catalog;

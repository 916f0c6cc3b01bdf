// The menu seeded on first start. Names are the spec's English names; the front end translates
// them. Type 0 = group, 1 = page (router + viewPath), 2 = permission (perms, comma-separated).

export interface MenuSeed {
  name: string;
  type: 0 | 1 | 2;
  router?: string;
  viewPath?: string;
  icon?: string;
  perms?: string;
  keepAlive?: boolean;
  isShow?: boolean;
  children?: MenuSeed[];
}

/** Add / Delete / Update / Query entries for a resource prefix such as `base:sys:user`. */
function crud(prefix: string, extra: MenuSeed[] = []): MenuSeed[] {
  return [
    { name: 'Add', type: 2, perms: `${prefix}:add` },
    { name: 'Delete', type: 2, perms: `${prefix}:delete` },
    { name: 'Update', type: 2, perms: `${prefix}:update` },
    { name: 'Query', type: 2, perms: `${prefix}:info,${prefix}:list,${prefix}:page` },
    ...extra,
  ];
}

const dashboardCalls = [
  'designInfo', 'designBaseInfo', 'designTypeInfo', 'designTypeNumberInfo', 'designDepartmentTypeNumberInfo',
  'departmentInfo', 'departmentDesignOrderInfo', 'departmentProcessInfo', 'departmentProcessTime',
  'allDepartmentProcessType', 'allDepartmentProcessTime', 'designerProcessInfo', 'designeDetailInfo',
  'processBaseInfo', 'processTypeInfo', 'deviceWorkInfo', 'addInfo', 'aiInfo', 'deviceAddressInfo',
].map((call) => `dashboard:info:${call}`);

// The user page also reads the department tree and the roles (its form), and manages departments.
const userPerms: MenuSeed[] = [
  ...crud('base:sys:user').map((m) =>
    m.name === 'Query' ? { ...m, perms: `${m.perms},base:sys:department:info,base:sys:department:list,base:sys:role:list` } : m,
  ),
  { name: 'Move', type: 2, perms: 'base:sys:user:move' },
  { name: 'Import', type: 2, perms: 'base:sys:user:import,base:sys:user:batchCreateUser' },
  { name: 'Export', type: 2, perms: 'base:sys:user:export' },
  { name: 'Import template', type: 2, perms: 'base:sys:user:template' },
  { name: 'Department add', type: 2, perms: 'base:sys:department:add' },
  { name: 'Department delete', type: 2, perms: 'base:sys:department:delete' },
  { name: 'Department update', type: 2, perms: 'base:sys:department:update,base:sys:department:order' },
];
// The role form grants menus and departments, so it reads both lists.
const rolePerms: MenuSeed[] = crud('base:sys:role').map((m) =>
  m.name === 'Query' ? { ...m, perms: `${m.perms},base:sys:menu:list,base:sys:department:list` } : m,
);

export const seedMenus: MenuSeed[] = [
  {
    name: 'Data board', type: 0, icon: 'dashboard',
    children: [
      {
        name: 'Data board', type: 1, router: '/dashboard', viewPath: 'modules/dashboard/views/board', icon: 'dashboard',
        children: [
          { name: 'Query', type: 2, perms: dashboardCalls.join(',') },
          // Added after the first release: its own entry, so databases seeded with the Query
          // string above get it once (a longer Query string would be a second Query entry).
          { name: 'Device time', type: 2, perms: 'dashboard:info:deviceProcessTime' },
        ],
      },
    ],
  },
  {
    name: 'Order management', type: 0, icon: 'order',
    children: [
      {
        name: 'Order list', type: 1, router: '/order/list', viewPath: 'modules/order/views/list', icon: 'order',
        children: crud('order:info', [
          { name: 'Retry AI', type: 2, perms: 'order:info:retryAI' },
          { name: 'All orders', type: 2, perms: 'order:info:all' },
          { name: 'Design', type: 2, perms: 'design:save,design:getDesignData' },
          { name: 'Bend', type: 2, perms: 'design:bend,design:getQueueList,design:userDeviceList,design:cancel,design:cancelJob' },
          // The order lifecycle and the editor's order calls (server/modules/design/order-calls.routes.ts):
          // new entries, so existing databases get them at their next start (seed-menu-sync.ts).
          { name: 'Order history', type: 2, perms: 'order:info:history' },
          {
            name: 'Design orders', type: 2,
            perms: 'design:submit,design:reopen,design:updateDRC,design:changeOrderList,design:otherDesign,design:copyOrder,design:getOcclusalModelData,design:getDeviceInfo,design:modifyModel,design:modelVersions,design:saveDentureBase,design:factories',
          },
          { name: 'Assign designer', type: 2, perms: 'design:designer' },
          // The teeth of an order's jaw models (the teeth job): a new entry, as above.
          { name: 'Order teeth', type: 2, perms: 'design:getTeeth' },
          // The automatic design (server/modules/ai/routes.ts): a new entry, as above.
          { name: 'AI design', type: 2, perms: 'design:retryAI,design:aiStatistics' },
          // The order form's delivery address, picked from the creator's addresses: a new entry, as above.
          { name: 'Delivery addresses', type: 2, perms: 'user:address:list,user:address:info' },
        ]),
      },
      {
        name: 'Time list', type: 1, router: '/order/time', viewPath: 'modules/order/views/time', icon: 'time',
        children: [{ name: 'Query', type: 2, perms: 'order:info:info,order:info:list,order:info:page' }],
      },
    ],
  },
  {
    name: 'Device management', type: 0, icon: 'device',
    children: [
      {
        name: 'Device list', type: 1, router: '/device/list', viewPath: 'modules/device/views/list', icon: 'device',
        children: crud('device:info', [
          { name: 'Config', type: 2, perms: crud('device:config').map((m) => m.perms).join(',') },
          // A device's configuration as a whole, and the springback tables it replaced (a new entry:
          // entries are keyed by their perms, so changing Config's would duplicate it in databases
          // seeded before).
          { name: 'Calibration', type: 2, perms: 'device:info:config,device:config:history,device:config:restore' },
          { name: 'Reset key', type: 2, perms: 'device:info:resetKey' },
          { name: 'Bind users', type: 2, perms: 'device:info:userList,device:info:bind,device:info:unbind' },
          { name: 'Editor devices', type: 2, perms: 'device:info:diameterList,device:info:currentDevice' },
          { name: 'All devices', type: 2, perms: 'device:info:all' },
          { name: 'Export', type: 2, perms: 'device:info:export' },
        ]),
      },
    ],
  },
  {
    name: 'Interface configuration', type: 0, icon: 'api',
    children: [
      {
        name: 'Config list', type: 1, router: '/device/api-config', viewPath: 'modules/device/views/api-config', icon: 'api',
        children: crud('device:apiConfig', [
          { name: 'Departments', type: 2, perms: 'device:apiConfig:departmentList' },
          { name: 'Rotate secret', type: 2, perms: 'device:apiConfig:rotateSecret' },
          { name: 'Deliveries', type: 2, perms: 'device:apiConfig:deliveries' },
          { name: 'Send again', type: 2, perms: 'device:apiConfig:redeliver' },
        ]),
      },
    ],
  },
  {
    name: 'System management', type: 0, icon: 'system',
    children: [
      {
        name: 'File space', type: 1, router: '/space/list', viewPath: 'modules/space/views/list', icon: 'file',
        children: [
          ...crud('space:info').filter((m) => m.name !== 'Add'),
          { name: 'Folders', type: 2, perms: crud('space:type').map((m) => m.perms).join(',') },
          { name: 'All files', type: 2, perms: 'space:info:all' },
          // Filing an uploaded file into a folder (space-info.ts add): a new entry, as above.
          { name: 'Add to folder', type: 2, perms: 'space:info:add' },
        ],
      },
      {
        name: 'Permission management', type: 0, icon: 'permission',
        children: [
          { name: 'User list', type: 1, router: '/sys/user', viewPath: 'modules/base/views/user', icon: 'user', children: userPerms },
          {
            name: 'Menu list', type: 1, router: '/sys/menu', viewPath: 'modules/base/views/menu', icon: 'menu',
            children: crud('base:sys:menu', [
              { name: 'Import', type: 2, perms: 'base:sys:menu:import' },
              { name: 'Export', type: 2, perms: 'base:sys:menu:export' },
              // Writing permission strings onto menus (sys-menu.ts): a right of its own, added
              // to existing databases by the seed sync on their next start.
              { name: 'Edit permissions', type: 2, perms: 'base:sys:menu:perms' },
              // A page with its rights from a resource's eps description, and a checked import
              // of a menu file (menu-create.ts): new entries, as above.
              { name: 'Create from resource', type: 2, perms: 'base:sys:menu:create' },
              { name: 'Import file', type: 2, perms: 'base:sys:menu:parse' },
            ]),
          },
          { name: 'Role list', type: 1, router: '/sys/role', viewPath: 'modules/base/views/role', icon: 'role', children: rolePerms },
        ],
      },
      {
        name: 'Recycle bin', type: 1, router: '/recycle/data', viewPath: 'modules/recycle/views/data', icon: 'recycle',
        children: [
          { name: 'Query', type: 2, perms: 'recycle:data:info,recycle:data:page' },
          { name: 'Restore', type: 2, perms: 'recycle:data:restore' },
          { name: 'Delete', type: 2, perms: 'recycle:data:delete' },
        ],
      },
      // The AI coding helper (server/modules/helper): a new entry, added to existing databases by
      // the seed sync. Creating modules is granting rights: its own entry.
      {
        name: 'AI coding', type: 1, router: '/helper/ai-code', viewPath: 'modules/helper/views/ai-code', icon: 'code', keepAlive: true,
        children: [
          { name: 'Query', type: 2, perms: 'helper:aiCode:list,helper:aiCode:parse,helper:aiCode:source' },
          { name: 'Create modules', type: 2, perms: 'helper:aiCode:create,helper:aiCode:remove' },
        ],
      },
      {
        name: 'Plugin list', type: 1, router: '/sys/plugin', viewPath: 'modules/plugin/views/list', icon: 'set',
        children: [
          { name: 'Query', type: 2, perms: 'plugin:info:list' },
          { name: 'Enable and configure', type: 2, perms: 'plugin:info:enable,plugin:info:config' },
          { name: 'Install', type: 2, perms: 'plugin:info:install,plugin:info:uninstall' },
        ],
      },
      { name: 'Param list', type: 1, router: '/sys/param', viewPath: 'modules/base/views/param', icon: 'param', children: crud('base:sys:param', [{ name: 'Preview', type: 2, perms: 'base:sys:param:html' }]) },
      { name: 'Dictionary list', type: 1, router: '/dict/list', viewPath: 'modules/dict/views/list', icon: 'dict', children: crud('dict:type', [
        ...crud('dict:info').map((m) => ({ ...m, name: `Entry ${m.name.toLowerCase()}` })),
        { name: 'Entry import', type: 2, perms: 'dict:info:import,dict:info:template' },
        { name: 'Entry export', type: 2, perms: 'dict:info:export' },
      ]) },
      {
        name: 'Version management', type: 0, icon: 'version',
        children: [
          { name: 'Version list', type: 1, router: '/sys/release', viewPath: 'modules/base/views/release', icon: 'version', children: crud('base:sys:release') },
        ],
      },
      {
        name: 'Monitoring management', type: 0, icon: 'monitor',
        children: [
          {
            name: 'Request log', type: 1, router: '/sys/log', viewPath: 'modules/base/views/log', icon: 'log',
            children: [
              { name: 'Query', type: 2, perms: 'base:sys:log:page' },
              { name: 'Clear', type: 2, perms: 'base:sys:log:clear' },
              { name: 'Keep days', type: 2, perms: 'base:sys:log:setKeep,base:sys:log:getKeep' },
            ],
          },
          {
            name: 'Task list', type: 1, router: '/task/list', viewPath: 'modules/task/views/list', icon: 'task',
            children: crud('task:info', [
              { name: 'Start and stop', type: 2, perms: 'task:info:start,task:info:stop' },
              { name: 'Run once', type: 2, perms: 'task:info:once' },
              { name: 'Run log', type: 2, perms: 'task:info:log,task:info:deleteLog,task:info:deleteLogAll,task:info:jobs' },
            ]),
          },
        ],
      },
    ],
  },
  {
    name: 'Help center', type: 0, icon: 'help',
    children: [
      {
        name: 'Help document', type: 1, router: '/help/doc', viewPath: 'modules/help/views/doc', icon: 'doc',
        children: [{ name: 'Read', type: 2, perms: 'base:sys:article:docs,base:sys:article:doc' }],
      },
      {
        name: 'Article list', type: 1, router: '/help/article', viewPath: 'modules/help/views/article', icon: 'article',
        children: crud('base:sys:article', crud('base:sys:articleCategory').map((m) => ({ ...m, name: `Category ${m.name.toLowerCase()}` }))),
      },
    ],
  },
  {
    // The plugin demo pages (src/modules/demo): new entries, so existing databases get them at
    // their next start (seed-menu-sync.ts).
    name: 'Plugins', type: 0, icon: 'plugin',
    children: [
      {
        name: 'Demo', type: 0, icon: 'plugin',
        children: [
          {
            name: 'User address', type: 1, router: '/demo/address', viewPath: 'modules/demo/views/address', icon: 'order',
            children: crud('user:address', [{ name: 'All addresses', type: 2, perms: 'user:address:all' }]),
          },
          { name: 'Region picker', type: 1, router: '/demo/region', viewPath: 'modules/demo/views/region', icon: 'plugin' },
          {
            name: 'Markdown editor', type: 1, router: '/demo/markdown', viewPath: 'modules/demo/views/markdown', icon: 'doc',
            children: crud('demo:article'),
          },
          { name: 'Code editor', type: 1, router: '/demo/code', viewPath: 'modules/demo/views/code', icon: 'doc' },
          { name: 'Editor preview', type: 1, router: '/demo/preview', viewPath: 'modules/demo/views/preview', icon: 'doc' },
          {
            name: 'Rich text editor', type: 1, router: '/demo/rich-text', viewPath: 'modules/demo/views/rich-text', icon: 'article',
            children: crud('demo:article'),
          },
          { name: 'File upload', type: 1, router: '/demo/upload', viewPath: 'modules/demo/views/upload', icon: 'file' },
          { name: 'View layout', type: 1, router: '/demo/layout', viewPath: 'modules/demo/views/layout', icon: 'dashboard' },
          {
            name: 'Demo list', type: 1, router: '/demo/list', viewPath: 'modules/demo/views/list', icon: 'menu',
            children: crud('demo:sample'),
          },
        ],
      },
    ],
  },
];

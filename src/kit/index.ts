/** The back-office kit: declarative CRUD pages and their parts. See docs/kit.md. */
export { CrudPage, type CrudHandle, type CrudPageProps } from './CrudPage';
export { KitTable, OP_WIDTH, type KitTableProps } from './Table';
export { Pagination, pagerItems } from './Pagination';
export { KeywordSearch, SearchDrawer, KEYWORD_DEBOUNCE_MS } from './Toolbar';
export { KitForm, LABEL_WIDTH, type FormHandle, type KitFormProps } from './Form';
export { Field, ConfigError, toTree } from './fields';
export { UpsertDialog, type UpsertDialogProps, type UpsertTarget } from './UpsertDialog';
export { useConfirm, type ConfirmOptions } from './confirm';
export { createService, permsFor, permPrefix, readPage, ACTIONS } from './service';
export { useOptions, setDict, dictOptions } from './dict';
export { uploadFile, uploadUrls, useFileUrl, needsToken, UPLOAD_URL, type UploadOptions } from './upload';
export { useTableState, readState, writeState, stateQuery, DEFAULT_PAGE, DEFAULT_SIZE, PAGE_SIZES, type TableState, type StateMode } from './url-state';
export { submitData, initialForm, cleanQuery, getPath, setPath, propPath, rangeProps, isEmptyValue } from './values';
export type * from './types';

/** The one approval path, as tools call it (it lives in the workspace layer so engines share it). */
export { confirmOrRefuse, NO_APPROVER_HINT, type ApprovalContext, type ConfirmOptions } from '../workspace/approval.js';

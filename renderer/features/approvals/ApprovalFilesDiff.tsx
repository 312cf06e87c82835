import { useState } from 'react';
import type { ApprovalFile, ApprovalRequest } from '../../../shared/ipc/approvals';
import { ApprovalDiff } from './ApprovalDiff';
import { ApprovalFileList, fileTabId } from './ApprovalFileList';

const panelId = 'approval-file-panel';

/** A change to several files (a rename): the file list beside the diff of the file chosen in it. */
export function ApprovalFilesDiff({
  request,
  files,
}: {
  readonly request: ApprovalRequest;
  readonly files: readonly ApprovalFile[];
}) {
  // ApprovalContent is keyed by request: another request starts again at its first file.
  const [selected, setSelected] = useState(0);
  const file = files[selected] ?? files[0];
  return (
    <div className="approval-files">
      <ApprovalFileList files={files} selected={selected} onSelect={setSelected} panelId={panelId} />
      <div className="approval-file-panel" id={panelId} role="tabpanel" aria-labelledby={fileTabId(selected)}>
        {file !== undefined && <ApprovalDiff request={request} file={file} />}
      </div>
    </div>
  );
}

import { DiffEditor, Editor } from '@monaco-editor/react';
import type { DiffOnMount, OnMount } from '@monaco-editor/react';
import { useEffect, useRef } from 'react';
import type { CodeViewProps, CodeViewReady } from './code-view-props';
import { languageForPath, monaco } from './monaco-setup';

const shared = {
  automaticLayout: true,
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  fontSize: 13,
  wordWrap: 'on',
} as const;

type DiffProps = Extract<CodeViewProps, { kind: 'diff' }> & CodeViewReady;
type MonacoDiffEditor = Parameters<DiffOnMount>[0];

function DiffView(props: DiffProps) {
  // Monaco keeps the callbacks it was given at mount: route them through refs so they stay current.
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });
  // The diff widget does not hand originalAriaLabel/modifiedAriaLabel to its two inner editors (their
  // inputs had no name: axe aria-input-field-name): name each editor itself, again when the label changes.
  const diffEditor = useRef<MonacoDiffEditor | null>(null);
  const nameEditors = (editor: MonacoDiffEditor, label: string) => {
    editor.getOriginalEditor().updateOptions({ ariaLabel: label });
    editor.getModifiedEditor().updateOptions({ ariaLabel: label });
  };
  useEffect(() => {
    if (diffEditor.current !== null) nameEditors(diffEditor.current, props.label);
  }, [props.label]);
  const onMount: DiffOnMount = (editor) => {
    diffEditor.current = editor;
    nameEditors(editor, props.label);
    // @monaco-editor/react disposes the models before the diff widget, which throws ("TextModel got
    // disposed before DiffEditorWidget model got reset"); keep them and dispose after the widget.
    const models = editor.getModel();
    editor.onDidDispose(() => {
      models?.original.dispose();
      models?.modified.dispose();
    });
    const modified = editor.getModifiedEditor();
    modified.onDidChangeModelContent(() => latest.current.onModifiedChange(modified.getValue()));
    modified.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => latest.current.onSubmit());
    editor
      .getOriginalEditor()
      .addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => latest.current.onSubmit());
    if (props.editable) modified.focus();
    // Ready once the diff is computed (in the editor worker): before that the view has no changes marked.
    const ready = () => {
      if (editor.getLineChanges() !== null) latest.current.onReady(latest.current.path);
    };
    editor.onDidUpdateDiff(ready);
    ready();
  };
  const language = languageForPath(props.path);
  return (
    <DiffEditor
      original={props.original}
      modified={props.modified}
      language={language}
      originalModelPath={`inmemory://approval/${props.modelKey}/before/${props.path}`}
      modifiedModelPath={`inmemory://approval/${props.modelKey}/after/${props.path}`}
      keepCurrentOriginalModel
      keepCurrentModifiedModel
      theme={props.theme === 'dark' ? 'vs-dark' : 'vs'}
      onMount={onMount}
      options={{
        ...shared,
        renderSideBySide: props.layout === 'side-by-side',
        useInlineViewWhenSpaceIsLimited: false,
        originalEditable: false,
        readOnly: !props.editable,
        // Read-only: Tab leaves the editor (keyboard users must reach the buttons); editing: Ctrl+M toggles.
        tabFocusMode: !props.editable,
        ariaLabel: props.label,
        originalAriaLabel: props.label,
        modifiedAriaLabel: props.label,
      }}
    />
  );
}

/** The lazy boundary: everything Monaco sits behind this default export (see LazyCodeView). */
export default function CodeView(props: CodeViewProps & CodeViewReady) {
  if (props.kind === 'diff') return <DiffView {...props} />;
  const { onReady, path } = props;
  const onMount: OnMount = () => onReady(path);
  return (
    <Editor
      // One editor (and one model, disposed with it) per file: switching files leaves nothing behind.
      key={props.path}
      value={props.text}
      language={languageForPath(props.path)}
      path={`inmemory://viewer/${props.path}`}
      theme={props.theme === 'dark' ? 'vs-dark' : 'vs'}
      onMount={onMount}
      options={{ ...shared, readOnly: true, domReadOnly: true, tabFocusMode: true, ariaLabel: props.label }}
    />
  );
}

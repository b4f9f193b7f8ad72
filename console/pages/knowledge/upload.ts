// A file chosen in the browser as knowledgeDocumentUpload takes it: its bytes in base64, its name, and its media
// type, named from the extension when it has a known one (browsers give Markdown files an empty or varying type).
const TYPE_BY_EXTENSION: Record<string, string> = {
  txt: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
};

/** What the file input accepts: the types the API reads (resolvers/knowledge/documentText.ts). */
export const ACCEPTED_FILES = '.txt,.md,.markdown,.html,.htm,text/plain,text/markdown,text/html';

/** btoa takes a binary string: built in chunks so a large file does not overflow the argument list. */
const CHUNK = 0x8000;

export async function fileUpload(file: File): Promise<{ content_base64: string; filename: string; content_type: string }> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let at = 0; at < bytes.length; at += CHUNK) binary += String.fromCharCode(...bytes.subarray(at, at + CHUNK));
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  return { content_base64: btoa(binary), filename: file.name, content_type: TYPE_BY_EXTENSION[extension] ?? (file.type || 'text/plain') };
}

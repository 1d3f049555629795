// A child's output stream read as text, chunk by chunk as it comes (UTF-8 split across chunks is
// decoded whole). The stream erroring is its end too: a process that exits takes its pipes with it.
export async function forEachTextChunk(
  stream: ReadableStream<Uint8Array>,
  onText: (text: string, byteLength: number) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      onText(decoder.decode(value, { stream: true }), value.byteLength);
    }
  } catch {
    // The stream ended when its owner did.
  }
}

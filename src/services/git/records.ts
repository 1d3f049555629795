// Git's formatted output as records: the formats the bridge asks for end each record with RS (0x1e)
// and separate fields with US (0x1f), characters that do not occur in names, subjects or refs, so
// no author or message can shift a field. Git puts a newline between records; it is dropped.
export function records(output: string): string[][] {
  return output
    .split("\x1e")
    .map((record) => record.replace(/^\n/, ""))
    .filter((record) => record !== "")
    .map((record) => record.split("\x1f"));
}

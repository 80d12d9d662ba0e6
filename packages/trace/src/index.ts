export * from "./event.ts";
export * from "./event-fields.ts";
export { listInBrief } from "./list-in-brief.ts";
export * from "./analysis/model.ts";
export { Analyzer, HOT_LOOP_THRESHOLD, type AnalyzerOptions } from "./analysis/analyzer.ts";
export { NOT_DECIMAL, rvNumber } from "./analysis/rv-number.ts";
export {
  otherControllerIn,
  otherControllerNote,
  type OtherController,
} from "./analysis/other-controller.ts";
export { LineSplitter, type LineSink, type Utf8Decoder } from "./lines/splitter.ts";
export { LineMarks } from "./lines/line-marks.ts";
export { asUtf8, utf16Of, type Utf16 } from "./lines/utf16.ts";
export { LineFile, type ByteSource } from "./lines/line-file.ts";
export { TraceReader, type ReaderOptions, type TraceFormat } from "./reader/trace-reader.ts";
export { readTrace, readTraceText, TraceStream } from "./reader/read-trace.ts";
export {
  exportHead,
  whyNotATrace,
  type ExportHead,
  type ReadOutcome,
} from "./reader/not-a-trace.ts";
export {
  TRACE_FORMAT_VERSION,
  encodeHeader,
  encodeEvent,
  decodeHeader,
  isHeaderRecord,
  type TraceHeader,
} from "./jsonl/format.ts";
export {
  decodeEvent,
  decodeEventLine,
  decodeEventLines,
  decodeEventRecords,
} from "./jsonl/decode-event.ts";
export { KlogParser, NOISE_FILES, type KlogOptions } from "./klog/klog-parser.ts";
export { parseKlogHeader, type KlogHeader } from "./klog/header.ts";
export { type LineContext, type StageFields, type StageRowTaker } from "./klog/stage-fields.ts";
export { fieldList } from "./klog/spellings.ts";
export { parseMarker, type PassMarker } from "./klog/markers.ts";
export { unquoteGo, readGoQuoted } from "./klog/go-quote.ts";
export * from "./export/index.ts";
export {
  buildExcerpt,
  excerptLineColumn,
  excerptSpan,
  excerpt,
  renderExcerptMarkdown,
  renderExcerptText,
  withWholeTrace,
  type WholeTraceAnalysis,
  type Excerpt,
  type ExcerptOptions,
  type ExcerptRow,
} from "./excerpt/excerpt.ts";
export { ExcerptEvents } from "./excerpt/excerpt-events.ts";
export { canonicalText, messageText } from "./excerpt/stage-text.ts";
export * from "./narration/index.ts";
// Trace bytes → typed-array row batches (the dashboard's replay worker and live store).
export {
  ABSENT,
  fieldOfColumn,
  KIND_CODES,
  NUMERIC_FIELDS,
  RowEncoder,
  STAGE_CODE,
  transferList,
  type ColumnBatch,
  type NumericField,
  type RowColumns,
} from "./rows/row-encoder.ts";
export { RowDecoder } from "./rows/row-decoder.ts";
export { resolveKeyRefs } from "./rows/key-refs.ts";
export { BatchIds } from "./rows/batch-ids.ts";
export { createRowReader, type RowReader, type RowSink } from "./rows/row-reader.ts";
export { JsonlRows } from "./rows/jsonl-rows.ts";

//! agentc's own stdio transport, in place of lsp-server's: its reader
//! allocates whatever `Content-Length` says and ends the connection on the
//! first malformed message, so one bad byte from a client stops the server
//! and a huge length aborts it (an allocation failure, which no
//! `catch_unwind` catches).
//!
//! This one frames messages within fixed limits and survives what does
//! not fit them:
//!
//! - A header section is at most [`MAX_HEADER_BYTES`]; lines end in `\r\n`
//!   or `\n`; headers other than `Content-Length` (`Content-Type`) are
//!   ignored, in any case.
//! - A body is at most [`MAX_MESSAGE_BYTES`]. One over it is read past in
//!   chunks of [`CHUNK`] bytes, never held, and logged; its id is not read,
//!   so a request that large is not answered (only `didOpen` and
//!   `didChange` carry text, and they are notifications).
//! - A body of more than [`MAX_JSON_VALUES`] JSON values is dropped and
//!   logged before it is parsed, as an oversized one is: parsed, a value
//!   takes many times the bytes it was written in.
//! - A body that is not JSON (or not UTF-8) is answered with `ParseError`
//!   to id `null`; JSON that is not a request, notification or response
//!   with `InvalidRequest`, to its id when one can be read. A malformed
//!   response is only logged: answering a response could start an endless
//!   exchange with a client that answers errors.
//! - A line in a header section that is not `Name: value` is logged and
//!   skipped; the message is read if the section has a length. A section
//!   without a usable length (none, not a number, too long) cannot say
//!   where its body ends, so the reader resynchronises: it skips to the
//!   next `Content-Length` in the stream, case-insensitively, which is
//!   where the next message's header starts (a JSON body carries that text
//!   only inside a string, where a line break would be escaped, so a false
//!   match reads a length that is not a number and the search goes on).
//!   The same search finds a header glued to the end of junk on its line.
//!
//! Everything dropped is logged to the client with `window/logMessage`.
//! The end of input ends the connection, as does `exit`.

use crossbeam_channel::{Receiver, Sender, bounded, never, select};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;

/// The largest message body read. A protocol file is at most
/// [`crate::source::MAX_FILE_BYTES`] (16 MiB), and `didOpen` carries it as
/// a JSON string: line breaks, quotes and backslashes become two bytes,
/// other control characters six, non-ASCII text stays as it is. Four
/// times the file limit holds any protocol-sized file whose escaping at
/// most quadruples it, and bounds what one message costs: the body, then
/// its parsed value, a few times this at most.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024 * 1024;

/// The largest header section: real ones are under 100 bytes
/// (`Content-Length` and perhaps `Content-Type`).
pub const MAX_HEADER_BYTES: usize = 8 * 1024;

/// The most JSON values one message may hold. Parsed, a value takes 72
/// bytes (`serde_json::Value`, 104 with its key in an object, and up to
/// twice that while an array grows), so a body of 64 MiB of `[0,0,...]`
/// would become 2.5 GB; with this bound the tree of any message stays
/// under about 150 MiB, two or three times [`MAX_MESSAGE_BYTES`]. Real
/// messages are far below it: a `didOpen` of any text is 6 values, a
/// change in a `didChange` 9, so a batch of over 100,000 changes would
/// be refused (and logged) before it is parsed.
pub const MAX_JSON_VALUES: usize = 1 << 20;

/// The reader's buffer, and the size of the chunks it reads past an
/// oversized body in.
const CHUNK: usize = 64 * 1024;

const NEEDLE: &[u8] = b"content-length";

/// What the reader found next in the stream.
#[derive(Debug)]
pub(crate) enum Frame {
    Message(Message),
    /// Bytes that were not a message: the error response to send, if any,
    /// and what to log.
    Dropped {
        reply: Option<Value>,
        log: String,
    },
}

enum Pending {
    Nothing,
    /// Bytes of an oversized body still to read past.
    Skip(u64),
    /// Find the next `Content-Length` before reading a header section.
    Resync,
}

enum Got {
    Line(Vec<u8>),
    /// The line would pass the budget; nothing was consumed.
    TooLong,
    Eof,
}

/// Reads framed messages from a byte stream within the limits above.
pub(crate) struct Reader<R> {
    input: R,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    eof: bool,
    pending: Pending,
    queue: VecDeque<Frame>,
    /// The largest buffer the reader has held, in bytes.
    #[cfg(test)]
    largest: usize,
}

impl<R: Read> Reader<R> {
    pub(crate) fn new(input: R) -> Reader<R> {
        Reader {
            input,
            buf: vec![0; CHUNK].into_boxed_slice(),
            start: 0,
            end: 0,
            eof: false,
            pending: Pending::Nothing,
            queue: VecDeque::new(),
            #[cfg(test)]
            largest: CHUNK,
        }
    }

    /// The next message, or what was dropped in its place; `None` at the
    /// end of input.
    pub(crate) fn next(&mut self) -> io::Result<Option<Frame>> {
        loop {
            if let Some(frame) = self.queue.pop_front() {
                return Ok(Some(frame));
            }
            match std::mem::replace(&mut self.pending, Pending::Nothing) {
                Pending::Nothing => {}
                Pending::Skip(left) => {
                    if !self.skip(left)? {
                        return Ok(None);
                    }
                }
                Pending::Resync => {
                    if !self.resync()? {
                        return Ok(None);
                    }
                }
            }
            let Some(length) = self.headers()? else {
                if self.queue.is_empty() {
                    return Ok(None);
                }
                continue;
            };
            let Some(length) = length else {
                // Logged by `headers`; the stream is out of step.
                self.pending = Pending::Resync;
                continue;
            };
            if length > MAX_MESSAGE_BYTES as u64 {
                self.pending = Pending::Skip(length);
                self.queue.push_back(Frame::Dropped {
                    reply: None,
                    log: format!(
                        "dropped a message of {}{length} bytes: over the limit of {} MiB",
                        // A length past `u64` was read as its largest value.
                        if length == u64::MAX { "at least " } else { "" },
                        MAX_MESSAGE_BYTES >> 20
                    ),
                });
                continue;
            }
            match self.body(length as usize)? {
                Some(body) => self.queue.push_back(decode(body)),
                None => return Ok(None),
            }
        }
    }

    /// Whether input past the last frame returned is already here: bytes
    /// in the buffer, or frames decoded and not yet returned.
    fn holds_more(&self) -> bool {
        self.start < self.end || !self.queue.is_empty()
    }

    /// Reads more input into the buffer, moving what is left to its start
    /// when it is full; `false` at the end of input.
    fn fill(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
        } else if self.end == self.buf.len() {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        if self.end == self.buf.len() {
            // Full of unconsumed bytes; callers never let that happen.
            return Ok(true);
        }
        loop {
            match self.input.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(false);
                }
                Ok(read) => {
                    self.end += read;
                    return Ok(true);
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
    }

    /// One line, without its `\n` or `\r\n`, if it fits in `budget` bytes
    /// (its line end included).
    fn line(&mut self, budget: usize) -> io::Result<Got> {
        loop {
            let buffered = &self.buf[self.start..self.end];
            if let Some(at) = memchr::memchr(b'\n', buffered) {
                if at + 1 > budget {
                    return Ok(Got::TooLong);
                }
                let mut line = buffered[..at].to_vec();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                self.start += at + 1;
                return Ok(Got::Line(line));
            }
            if buffered.len() >= budget {
                return Ok(Got::TooLong);
            }
            if !self.fill()? {
                // A header cut off by the end of input: nothing follows it.
                self.start = self.end;
                return Ok(Got::Eof);
            }
        }
    }

    /// Reads a header section. `None` at the end of input; `Some(None)`
    /// when the section has no usable length (logged); else the length.
    fn headers(&mut self) -> io::Result<Option<Option<u64>>> {
        let mut budget = MAX_HEADER_BYTES;
        let mut length: Option<Result<u64, String>> = None;
        let mut started = false;
        loop {
            let line = match self.line(budget)? {
                Got::Eof => return Ok(None),
                Got::TooLong => {
                    self.log(format!(
                        "dropped a header section longer than {MAX_HEADER_BYTES} bytes"
                    ));
                    // Past its first byte, so that the search for the next
                    // header cannot find this one again.
                    self.start += 1;
                    return Ok(Some(None));
                }
                Got::Line(line) => line,
            };
            budget = budget.saturating_sub(line.len() + 1);
            if line.is_empty() {
                if started {
                    break;
                }
                // A blank line between messages.
                continue;
            }
            started = true;
            // Junk glued before a header: the header starts anew.
            let glued = || {
                let at = find_needle(&line)?;
                Some((at, header(&line[at..])?))
            };
            let (name, value) = match header(&line) {
                Some(header) => header,
                None => match glued() {
                    Some((at, header)) => {
                        self.log(format!(
                            "dropped {at} bytes before a header: {}",
                            excerpt(&line[..at])
                        ));
                        length = None;
                        header
                    }
                    None => {
                        self.log(format!("ignored a header line: {}", excerpt(&line)));
                        continue;
                    }
                },
            };
            if name.eq_ignore_ascii_case(b"content-length") {
                length = Some(parse_length(value));
            }
        }
        match length {
            Some(Ok(length)) => Ok(Some(Some(length))),
            Some(Err(value)) => {
                self.log(format!(
                    "dropped a message whose Content-Length is not a number: {value}"
                ));
                Ok(Some(None))
            }
            None => {
                self.log("dropped a message without a Content-Length header".to_string());
                Ok(Some(None))
            }
        }
    }

    /// Reads a body of `length` bytes, growing its buffer as bytes arrive
    /// (a length alone allocates nothing); `None` if the input ends first.
    fn body(&mut self, length: usize) -> io::Result<Option<Vec<u8>>> {
        let mut body = Vec::new();
        while body.len() < length {
            if self.start == self.end && !self.fill()? {
                return Ok(None);
            }
            let take = (self.end - self.start).min(length - body.len());
            if body.len() + take > body.capacity() {
                let wanted = (body.capacity() * 2).max(CHUNK).min(length);
                body.reserve_exact(wanted.max(body.len() + take) - body.len());
            }
            body.extend_from_slice(&self.buf[self.start..self.start + take]);
            self.start += take;
            #[cfg(test)]
            {
                self.largest = self.largest.max(body.capacity());
            }
        }
        Ok(Some(body))
    }

    /// Reads past `left` bytes; `false` if the input ends first.
    fn skip(&mut self, mut left: u64) -> io::Result<bool> {
        while left > 0 {
            if self.start == self.end && !self.fill()? {
                return Ok(false);
            }
            let take = ((self.end - self.start) as u64).min(left);
            self.start += take as usize;
            left -= take;
        }
        Ok(true)
    }

    /// Reads up to the next `Content-Length`, case-insensitively, logging
    /// how much was skipped; `false` if the input ends first.
    fn resync(&mut self) -> io::Result<bool> {
        let mut skipped: u64 = 0;
        loop {
            let buffered = &self.buf[self.start..self.end];
            if let Some(at) = find_needle(buffered) {
                self.start += at;
                skipped += at as u64;
                if skipped > 0 {
                    self.log(format!(
                        "skipped {skipped} bytes to the next Content-Length header"
                    ));
                }
                return Ok(true);
            }
            // Keep a tail that may be the start of the needle.
            let keep = buffered.len().min(NEEDLE.len() - 1);
            let drop = buffered.len() - keep;
            self.start += drop;
            skipped += drop as u64;
            if !self.fill()? {
                return Ok(false);
            }
        }
    }

    fn log(&mut self, log: String) {
        self.queue.push_back(Frame::Dropped { reply: None, log });
    }
}

/// `Name: value`, the name an HTTP token; the value trimmed.
fn header(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let colon = memchr::memchr(b':', line)?;
    let (name, value) = (&line[..colon], &line[colon + 1..]);
    let token = |b: &u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(b);
    if name.is_empty() || !name.iter().all(token) {
        return None;
    }
    Some((name, value.trim_ascii()))
}

/// A length of decimal digits; one too large for 64 bits is as good as
/// infinite (read past to the end of input).
fn parse_length(value: &[u8]) -> Result<u64, String> {
    if value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
        return Err(excerpt(value));
    }
    Ok(value.iter().fold(0u64, |n, &d| {
        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    }))
}

fn find_needle(bytes: &[u8]) -> Option<usize> {
    memchr::memchr2_iter(b'c', b'C', bytes).find(|&at| {
        bytes
            .get(at..at + NEEDLE.len())
            .is_some_and(|found| found.eq_ignore_ascii_case(NEEDLE))
    })
}

/// Dropped bytes as a log shows them: at most 80 characters.
fn excerpt(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(80)]);
    let more = if bytes.len() > 80 { "..." } else { "" };
    format!("{:?}{more}", text)
}

/// At least the number of JSON values in `bytes`: one, and one more per
/// `[`, `{`, `:` and `,` outside strings (each value but the first follows
/// one of them). Counting stops past `limit`.
fn json_values(bytes: &[u8], limit: usize) -> usize {
    let mut count = 1;
    let mut in_string = false;
    let mut escaped = false;
    for &byte in bytes {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
        } else {
            match byte {
                b'"' => in_string = true,
                b'[' | b'{' | b':' | b',' => {
                    count += 1;
                    if count > limit {
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    count
}

/// A body as a message, or the error it gets.
fn decode(body: Vec<u8>) -> Frame {
    if json_values(&body, MAX_JSON_VALUES) > MAX_JSON_VALUES {
        return Frame::Dropped {
            reply: None,
            log: format!(
                "dropped a message of {} bytes with over {MAX_JSON_VALUES} JSON values, the most one may have",
                body.len()
            ),
        };
    }
    let value: Value = match serde_json::from_slice(&body) {
        Ok(value) => value,
        Err(error) => {
            return Frame::Dropped {
                reply: Some(error_response(
                    Value::Null,
                    ErrorCode::ParseError,
                    &format!("the message is not JSON: {error}"),
                )),
                log: format!(
                    "dropped a message that is not JSON ({error}): {}",
                    excerpt(&body)
                ),
            };
        }
    };
    drop(body);
    // JSON-RPC ids are numbers or strings; any other is no id.
    let id = match value.get("id") {
        Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
        _ => Value::Null,
    };
    let is_object = value.is_object();
    let has = |key: &str| value.get(key).is_some();
    let (has_method, has_id) = (has("method"), has("id"));
    let is_response = !has_method && (has("result") || has("error"));
    let parsed = if !is_object {
        Err("not an object".to_string())
    } else if has_method && has_id {
        serde_json::from_value::<Request>(value)
            .map(Message::Request)
            .map_err(|e| e.to_string())
    } else if has_method {
        serde_json::from_value::<Notification>(value)
            .map(Message::Notification)
            .map_err(|e| e.to_string())
    } else if is_response {
        serde_json::from_value::<Response>(value)
            .map(Message::Response)
            .map_err(|e| e.to_string())
    } else {
        Err("neither a method nor a result".to_string())
    };
    match parsed {
        Ok(message) => Frame::Message(message),
        Err(why) if is_response => Frame::Dropped {
            reply: None,
            log: format!("dropped a malformed response (id {id}): {why}"),
        },
        Err(why) => Frame::Dropped {
            reply: Some(error_response(
                id.clone(),
                ErrorCode::InvalidRequest,
                &format!("not a JSON-RPC request or notification: {why}"),
            )),
            log: format!("answered an invalid request (id {id}): {why}"),
        },
    }
}

fn error_response(id: Value, code: ErrorCode, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code as i32, "message": message}})
}

fn log_message(message: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": "window/logMessage",
           "params": {"type": 2, "message": format!("agentc: {message}")}})
}

/// The threads that move messages between the streams and a
/// [`Connection`].
pub struct IoThreads {
    reader: thread::JoinHandle<io::Result<()>>,
    writer: thread::JoinHandle<io::Result<()>>,
    incoming: Arc<Incoming>,
}

/// What the reader thread has read that the server may not have received
/// yet, for the server to tell a burst still arriving from a pause: the
/// connection's channels hold no message, so a message the reader is
/// still decoding is not in them.
#[derive(Debug, Default)]
pub struct Incoming {
    /// Messages decoded for the server, counted before each is handed over.
    decoded: AtomicU64,
    /// Whether the client had sent more than the last message decoded:
    /// bytes the reader has not decoded were in its buffer.
    buffered: AtomicBool,
}

impl Incoming {
    /// How many messages the reader has decoded for the server.
    pub(crate) fn decoded(&self) -> u64 {
        self.decoded.load(Ordering::Acquire)
    }

    /// Whether the client had sent more than the last message decoded.
    pub(crate) fn buffered(&self) -> bool {
        self.buffered.load(Ordering::Acquire)
    }
}

impl IoThreads {
    /// What the reader has read, for [`crate::lsp::serve`].
    pub fn incoming(&self) -> &Incoming {
        &self.incoming
    }

    /// Waits until everything the server sent is written. The reader is
    /// joined only if it has ended: after `exit` or the end of input it
    /// has, and otherwise (the client stopped reading) it may wait on
    /// input forever.
    pub fn join(self) -> io::Result<()> {
        let written = self.writer.join().unwrap_or_else(|panic| {
            std::panic::resume_unwind(panic);
        });
        if self.reader.is_finished() {
            self.reader
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
        }
        written
    }
}

/// A connection over standard input and output.
pub fn stdio() -> io::Result<(Connection, IoThreads)> {
    connect(io::stdin(), io::stdout())
}

/// A connection over any pair of streams, one thread reading, one writing.
/// The channels hold no message (`bounded(0)`): a client that sends faster
/// than the server answers, or does not read its answers, waits, rather
/// than the queues growing. The error is the system's refusal to start a
/// thread.
pub fn connect(
    input: impl Read + Send + 'static,
    output: impl Write + Send + 'static,
) -> io::Result<(Connection, IoThreads)> {
    let (to_server, from_client) = bounded::<Message>(0);
    let (to_client, from_server) = bounded::<Message>(0);
    let (to_writer, from_reader) = bounded::<Value>(0);
    let incoming = Arc::new(Incoming::default());
    let read = Arc::clone(&incoming);
    let reader = thread::Builder::new()
        .name("agentc-lsp-reader".to_string())
        .spawn(move || read_loop(Reader::new(input), &to_server, &to_writer, &read))?;
    let writer = thread::Builder::new()
        .name("agentc-lsp-writer".to_string())
        .spawn(move || write_loop(output, &from_server, from_reader))?;
    let connection = Connection {
        sender: to_client,
        receiver: from_client,
    };
    Ok((
        connection,
        IoThreads {
            reader,
            writer,
            incoming,
        },
    ))
}

fn read_loop<R: Read>(
    mut reader: Reader<R>,
    server: &Sender<Message>,
    writer: &Sender<Value>,
    incoming: &Incoming,
) -> io::Result<()> {
    while let Some(frame) = reader.next()? {
        match frame {
            Frame::Message(message) => {
                incoming
                    .buffered
                    .store(reader.holds_more(), Ordering::Release);
                incoming.decoded.fetch_add(1, Ordering::AcqRel);
                let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                if server.send(message).is_err() || exit {
                    break;
                }
            }
            Frame::Dropped { reply, log } => {
                let sent = reply.into_iter().chain([log_message(&log)]);
                for message in sent {
                    if writer.send(message).is_err() {
                        return Ok(());
                    }
                }
            }
        }
    }
    Ok(())
}

/// Writes the server's messages and the reader's own answers until the
/// server is done.
fn write_loop(
    mut output: impl Write,
    server: &Receiver<Message>,
    mut reader: Receiver<Value>,
) -> io::Result<()> {
    loop {
        select! {
            recv(server) -> message => match message {
                Ok(message) => message.write(&mut output)?,
                Err(_) => break,
            },
            recv(reader) -> value => match value {
                Ok(value) => write_value(&mut output, &value)?,
                // The reader is done; the server may still write.
                Err(_) => reader = never(),
            },
        }
    }
    // What the reader still had to say.
    while let Ok(value) = reader.try_recv() {
        write_value(&mut output, &value)?;
    }
    Ok(())
}

fn write_value(output: &mut impl Write, value: &Value) -> io::Result<()> {
    let body = serde_json::to_vec(value)?;
    write!(output, "Content-Length: {}\r\n\r\n", body.len())?;
    output.write_all(&body)?;
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn framed(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    /// Every frame up to the end of input.
    fn frames(input: impl Read) -> Vec<Frame> {
        let mut reader = Reader::new(input);
        let mut frames = Vec::new();
        while let Some(frame) = reader.next().expect("no I/O error") {
            frames.push(frame);
        }
        frames
    }

    /// The methods of the messages, and `error CODE` for each reply, `log`
    /// for each log without one.
    fn summary(frames: &[Frame]) -> Vec<String> {
        frames
            .iter()
            .map(|frame| match frame {
                Frame::Message(Message::Request(r)) => format!("request {}", r.method),
                Frame::Message(Message::Notification(n)) => format!("notification {}", n.method),
                Frame::Message(Message::Response(r)) => format!("response {}", r.id),
                Frame::Dropped {
                    reply: Some(reply), ..
                } => format!("error {} to {}", reply["error"]["code"], reply["id"]),
                Frame::Dropped { reply: None, .. } => "log".to_string(),
            })
            .collect()
    }

    const HOVER: &str = r#"{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{}}"#;
    const EXIT: &str = r#"{"jsonrpc":"2.0","method":"exit"}"#;

    /// A message over the limit is read past and logged with its length;
    /// one whose length does not fit in 64 bits, as at least the most that
    /// does (the rest of the stream is then read past).
    #[test]
    fn a_message_over_the_limit_is_logged_with_its_length() {
        let logs = |input: String| -> Vec<String> {
            frames(Cursor::new(input))
                .into_iter()
                .filter_map(|frame| match frame {
                    Frame::Dropped { reply: None, log } => Some(log),
                    _ => None,
                })
                .collect()
        };
        // The log comes before the body is read past: no body is needed
        // (the input ends inside it).
        let over = MAX_MESSAGE_BYTES + 1;
        let input = format!("Content-Length: {over}\r\n\r\n");
        assert_eq!(
            logs(input),
            [format!(
                "dropped a message of {over} bytes: over the limit of 64 MiB"
            )]
        );
        let input = format!(
            "Content-Length: 99999999999999999999\r\n\r\n{}",
            framed(EXIT)
        );
        assert_eq!(
            logs(input),
            [format!(
                "dropped a message of at least {} bytes: over the limit of 64 MiB",
                u64::MAX
            )]
        );
    }

    #[test]
    fn good_messages_read_in_order() {
        let input = format!("{}{}", framed(HOVER), framed(EXIT));
        let frames = frames(Cursor::new(input));
        assert_eq!(
            summary(&frames),
            ["request textDocument/hover", "notification exit"]
        );
    }

    #[test]
    fn a_body_that_is_not_json_is_a_parse_error_and_the_next_is_read() {
        let input = [
            framed("not json"),
            framed(HOVER),
            framed("{\"a\": "),
            framed(EXIT),
        ]
        .concat();
        assert_eq!(
            summary(&frames(Cursor::new(input))),
            [
                "error -32700 to null",
                "request textDocument/hover",
                "error -32700 to null",
                "notification exit"
            ]
        );
        // Not UTF-8.
        let body = b"{\"method\":\"\xff\"}";
        let mut input = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        input.extend_from_slice(body);
        input.extend_from_slice(framed(EXIT).as_bytes());
        assert_eq!(
            summary(&frames(Cursor::new(input))),
            ["error -32700 to null", "notification exit"]
        );
    }

    #[test]
    fn json_that_is_not_a_message_is_an_invalid_request_to_its_id() {
        let input = [
            framed("[1]"),
            framed("42"),
            framed(r#"{"jsonrpc":"2.0"}"#),
            framed(r#"{"id":3,"method":7}"#),
            framed(r#"{"id":"x","method":"m","params":1}"#),
            framed(r#"{"id":null,"method":"m"}"#),
            framed(r#"{"id":1.5,"method":"m"}"#),
            framed(r#"{"id":4294967296,"method":"m"}"#),
            framed(r#"{"method":[]}"#),
            // A response: only logged, even when malformed.
            framed(r#"{"id":{},"result":1}"#),
            framed(r#"{"id":2,"result":null}"#),
            framed(EXIT),
        ]
        .concat();
        let frames = frames(Cursor::new(input));
        assert_eq!(
            summary(&frames),
            [
                "error -32600 to null",
                "error -32600 to null",
                "error -32600 to null",
                "error -32600 to 3",
                "request m",
                "error -32600 to null",
                "error -32600 to 1.5",
                "error -32600 to 4294967296",
                "error -32600 to null",
                "log",
                "response 2",
                "notification exit"
            ]
        );
    }

    #[test]
    fn headers_end_in_either_line_break_in_any_case_and_others_are_ignored() {
        let input = format!(
            "content-type: application/vscode-jsonrpc; charset=utf-8\ncontent-length:{}\n\n{HOVER}\r\n\r\nCONTENT-LENGTH:   {}  \r\nX-Other: 1\r\n\r\n{EXIT}",
            HOVER.len(),
            EXIT.len()
        );
        assert_eq!(
            summary(&frames(Cursor::new(input))),
            ["request textDocument/hover", "notification exit"]
        );
    }

    #[test]
    fn bad_headers_are_logged_and_the_stream_found_again() {
        let input = [
            // No length: its body is skipped to the next header.
            "Content-Lenght: 8\r\n\r\n{\"a\": 1}".to_string(),
            framed(HOVER),
            // A length that is not a number.
            "Content-Length: 8x\r\n\r\n{\"a\": 1}".to_string(),
            framed(HOVER),
            // A line that is not a header, beside a good length.
            format!(
                "not a header\r\nContent-Length: {}\r\n\r\n{HOVER}",
                HOVER.len()
            ),
            // Junk glued before a header.
            format!("}}}}Content-Length: {}\r\n\r\n{HOVER}", HOVER.len()),
            // A header section over the limit.
            format!("X-Long: {}\r\n\r\n", "a".repeat(MAX_HEADER_BYTES)),
            framed(EXIT),
        ]
        .concat();
        let frames = frames(Cursor::new(input));
        let hover = "request textDocument/hover";
        assert_eq!(
            summary(&frames),
            [
                "log", // no length
                "log", // skipped its body
                hover,
                "log", // not a number
                "log", // skipped its body
                hover,
                "log", // not a header
                hover,
                "log", // junk before the header
                hover,
                "log", // too long
                "log", // skipped the rest of it
                "notification exit"
            ],
            "{frames:#?}"
        );
        let logs: Vec<&str> = frames
            .iter()
            .filter_map(|f| match f {
                Frame::Dropped { log, .. } => Some(log.as_str()),
                Frame::Message(_) => None,
            })
            .collect();
        assert!(logs[0].contains("without a Content-Length"), "{logs:?}");
        assert!(logs[1].contains("skipped 8 bytes"), "{logs:?}");
        assert!(logs[2].contains("not a number: \"8x\""), "{logs:?}");
        assert!(logs[4].contains("\"not a header\""), "{logs:?}");
        assert!(logs[5].contains("dropped 2 bytes"), "{logs:?}");
        assert!(logs[6].contains("longer than"), "{logs:?}");
    }

    #[test]
    fn a_length_shorter_or_longer_than_the_body_loses_little() {
        let input = [
            format!("Content-Length: 5\r\n\r\n{HOVER}"),
            framed(HOVER),
            format!("Content-Length: {}\r\n\r\n{HOVER}", HOVER.len() + 10),
            framed(HOVER),
            framed(HOVER),
            framed(EXIT),
        ]
        .concat();
        let summary = summary(&frames(Cursor::new(input)));
        // The short one is a parse error, and the hover after it read; the
        // long one eats into the next, and the one after that is read.
        let messages: Vec<_> = summary.iter().filter(|s| *s != "log").collect();
        assert_eq!(
            messages,
            [
                "error -32700 to null",
                "request textDocument/hover",
                "error -32700 to null",
                "request textDocument/hover",
                "notification exit"
            ],
            "{summary:?}"
        );
    }

    /// Bytes from a generator, in small reads: `head`, `count` spaces,
    /// then `tail`.
    struct Generated {
        head: Vec<u8>,
        count: u64,
        tail: Vec<u8>,
        at: u64,
        read_size: usize,
    }

    impl Read for Generated {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let total = self.head.len() as u64 + self.count + self.tail.len() as u64;
            let n = out.len().min(self.read_size);
            let mut written = 0;
            while written < n && self.at < total {
                let at = self.at;
                let head = self.head.len() as u64;
                out[written] = if at < head {
                    self.head[at as usize]
                } else if at < head + self.count {
                    b' '
                } else {
                    self.tail[(at - head - self.count) as usize]
                };
                written += 1;
                self.at += 1;
            }
            Ok(written)
        }
    }

    #[test]
    fn an_oversized_body_is_read_past_in_chunks() {
        let size: u64 = 100 * 1000 * 1000;
        let input = Generated {
            head: format!("Content-Length: {size}\r\n\r\n").into_bytes(),
            count: size,
            tail: [framed(HOVER), framed(EXIT)].concat().into_bytes(),
            at: 0,
            read_size: 1 << 20,
        };
        let mut reader = Reader::new(input);
        let mut frames = Vec::new();
        while let Some(frame) = reader.next().unwrap() {
            frames.push(frame);
        }
        assert_eq!(
            summary(&frames),
            ["log", "request textDocument/hover", "notification exit"]
        );
        assert!(reader.largest <= CHUNK, "held {} bytes", reader.largest);
    }

    #[test]
    fn a_huge_length_allocates_nothing() {
        let input = "Content-Length: 10000000000\r\n\r\n{}".to_string();
        let mut reader = Reader::new(Cursor::new(input));
        let Some(Frame::Dropped { reply: None, log }) = reader.next().unwrap() else {
            panic!("a log first");
        };
        assert!(log.contains("over the limit"), "{log}");
        assert!(reader.next().unwrap().is_none());
        assert!(reader.largest <= CHUNK);
        // A length past 64 bits is as large.
        let input = "Content-Length: 99999999999999999999999\r\n\r\n{}";
        let frames = frames(Cursor::new(input));
        assert_eq!(summary(&frames), ["log"]);
    }

    #[test]
    fn a_body_under_the_limit_grows_with_the_bytes_that_arrive() {
        // It claims 60 MiB and sends 10 bytes: no 60 MiB buffer.
        let input = format!("Content-Length: {}\r\n\r\n{{\"a\": 1}} ", 60 << 20);
        let mut reader = Reader::new(Cursor::new(input));
        assert!(reader.next().unwrap().is_none());
        assert!(reader.largest <= CHUNK);
        // One of 3 MB is held once, at its size.
        let body = format!(
            "{{\"method\": \"m\", \"params\": \"{}\"}}",
            "x".repeat(3_000_000)
        );
        let mut reader = Reader::new(Cursor::new(framed(&body)));
        let Some(Frame::Message(Message::Notification(n))) = reader.next().unwrap() else {
            panic!("the notification");
        };
        assert_eq!(n.params.as_str().map(str::len), Some(3_000_000));
        assert!(reader.largest <= body.len() + CHUNK, "{}", reader.largest);
    }

    #[test]
    fn a_body_of_too_many_values_is_dropped_before_it_is_parsed() {
        let zeros = format!("[{}0]", "0,".repeat(MAX_JSON_VALUES));
        let input = [framed(&zeros), framed(HOVER)].concat();
        let frames = frames(Cursor::new(input));
        assert_eq!(summary(&frames), ["log", "request textDocument/hover"]);
        // Up to the limit it is parsed (and, not being a message, refused).
        let zeros = format!("[{}0]", "0,".repeat(MAX_JSON_VALUES - 3));
        assert_eq!(summary(&frames_of(&zeros)), ["error -32600 to null"]);
        // Punctuation inside strings, escaped quotes included, is text.
        let text = format!(
            "{{\"method\": \"m\", \"params\": \"\\\"{}\"}}",
            ",".repeat(MAX_JSON_VALUES * 2)
        );
        assert_eq!(summary(&frames_of(&text)), ["notification m"]);
        // Six values; the bound counts the object and array punctuation too.
        assert_eq!(json_values(br#"{"a": [1, 2, {"b": "[,:{"}]}"#, 100), 8);
    }

    fn frames_of(body: &str) -> Vec<Frame> {
        frames(Cursor::new(framed(body)))
    }

    #[test]
    fn a_message_split_across_one_byte_reads_is_read_whole() {
        let text = [framed("nope"), framed(HOVER), framed(EXIT)].concat();
        let input = Generated {
            head: text.into_bytes(),
            count: 0,
            tail: Vec::new(),
            at: 0,
            read_size: 1,
        };
        assert_eq!(
            summary(&frames(input)),
            [
                "error -32700 to null",
                "request textDocument/hover",
                "notification exit"
            ]
        );
    }

    #[test]
    fn blank_lines_between_messages_and_a_cut_off_end_are_harmless() {
        let input = format!("\r\n\n{}\r\n{}Content-Len", framed(HOVER), framed(EXIT));
        assert_eq!(
            summary(&frames(Cursor::new(input))),
            ["request textDocument/hover", "notification exit"]
        );
        // The end of input inside a body.
        let input = "Content-Length: 50\r\n\r\n{\"id\": 1";
        assert!(frames(Cursor::new(input)).is_empty());
    }

    /// Through the threads: bad messages are answered by the reader,
    /// good ones reach the server, and `exit` ends the reader.
    #[test]
    fn the_connection_answers_bad_messages_and_passes_good_ones() {
        use std::sync::{Arc, Mutex};
        #[derive(Clone, Default)]
        struct Shared(Arc<Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(bytes);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let input = [framed("nope"), framed(HOVER), framed(EXIT), framed(HOVER)].concat();
        let output = Shared::default();
        let (connection, threads) =
            connect(Cursor::new(input), output.clone()).expect("start the threads");
        let Ok(Message::Request(request)) = connection.receiver.recv() else {
            panic!("the hover");
        };
        let response = Response::new_ok(request.id, Value::Null);
        connection.sender.send(Message::Response(response)).unwrap();
        assert!(matches!(
            connection.receiver.recv(),
            Ok(Message::Notification(n)) if n.method == "exit"
        ));
        // Nothing after `exit` is read.
        assert!(connection.receiver.recv().is_err());
        drop(connection);
        threads.join().unwrap();
        let written = String::from_utf8(output.0.lock().unwrap().clone()).unwrap();
        assert!(written.contains(r#""code":-32700"#), "{written}");
        assert!(written.contains("window/logMessage"), "{written}");
        assert!(written.contains(r#""id":1,"result":null"#), "{written}");
    }
}

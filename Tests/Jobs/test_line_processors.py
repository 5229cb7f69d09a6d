"""A stream processor that pipes one message a line into a long-lived child and reads exactly one line back
(Redpanda Connect's `subprocess` processor: one message in flight, no timeout, a message fails on any stderr byte,
64 KiB lines), driving both `pipe` and the JSON-RPC face with the settings docs/jobs.md gives: every message gets its
own answer, cards included with --files-dir."""
import json

import pytest

from jobs_testing import BINARY, LineProcessor, MessageFailed, environment


@pytest.fixture()
def files(tmp_path):
    folder = tmp_path / "files"
    folder.mkdir()
    return folder


def test_pipe_answers_every_message_once(files):
    processor = LineProcessor([BINARY, "pipe", "boxoffice.daily", "--offline", "--files-dir", str(files)],
                              environment())
    messages = ["2023-04-26", "", "{broken", '{"date":"2023-04-23","id":"w"}', '{"date":"2023-04-26","card":"grid"}',
                "2022-01-05", '{"date":"2023-04-26","_meta":{"progressToken":"p"},"include":["detail"]}',
                "2030-01-01", '{"date":"2023-04-23","card":"list","include":["detail"]}', "   ", "[]", '"2023-04-26"']
    answers = [json.loads(processor.process(message)) for message in messages * 3]
    status, stderr = processor.close()
    assert (status, stderr) == (2, b"")
    kinds = ["result" if "result" in answer else answer["error"]["reason"] for answer in answers[:len(messages)]]
    assert kinds == ["result", "invalid_request", "parse_error", "result", "result", "result", "result",
                     "invalid_params", "result", "invalid_request", "invalid_request", "result"]
    assert answers[3]["id"] == "w"
    assert answers[4]["result"]["card"]["path"].startswith(str(files))
    # The three rounds answered alike, each message its own answer (no line left over or shifted).
    assert answers[:len(messages)] == answers[len(messages):2 * len(messages)] == answers[2 * len(messages):]


def test_the_json_rpc_face_with_the_documented_settings(files):
    processor = LineProcessor([BINARY, "--offline", "--log-level", "error", "--files-dir", str(files)],
                              environment())
    calls = [("boxoffice.daily", {"date": "2023-04-26"}), ("movie.detail", {"movieCode": "20124079"}),
             ("boxoffice.daily", {"date": "2023-04-26", "card": "list", "include": ["detail"]}),
             ("movie.search", {"title": "범죄와의 전쟁"}), ("boxoffice.weekly", {"date": "2023-04-23", "period": "week", "card": "grid"}),
             ("boxoffice.daily", {"date": "2001-01-01"}), ("worker.status", {}), ("ping", {})]
    for round_number in range(3):
        for number, (method, params) in enumerate(calls):
            identifier = round_number * 100 + number
            line = processor.process(json.dumps({"jsonrpc": "2.0", "id": identifier, "method": method,
                                                 "params": params}))
            answer = json.loads(line)
            assert answer["id"] == identifier
            assert ("error" in answer) == (params.get("date") == "2001-01-01"), answer
    status, stderr = processor.close()
    assert (status, stderr) == (0, b"")


def test_a_card_without_files_dir_outgrows_the_default_buffer(tmp_path):
    """Why docs/jobs.md says --files-dir: a card in base64 is over 64 KiB, and the processor fails the message."""
    processor = LineProcessor([BINARY, "pipe", "boxoffice.daily", "--offline"], environment())
    with pytest.raises(MessageFailed, match="max_buffer"):
        processor.process('{"date":"2023-04-26","card":"list"}')
    processor.child.kill()
    processor.close()

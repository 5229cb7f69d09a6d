"""What one answer may hold is bounded, so no request shape can take the worker's memory: twenty concurrent
people.detail calls for people whose KOBIS records list 100,000 films (8 MB each) are refused as too large as they
arrive, and twenty records just under the 1 MiB bound are answered with their first 5,000 films; either way the
worker's peak stays under 200 MB (it reached 730 MB)."""
import http.server
import json
import os
import pathlib
import subprocess
import sys
import threading
import urllib.parse

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "testing"))
from worker_binary import worker_binary  # noqa: E402

BINARY = worker_binary()


def person(code, films):
    filmography = [{"movieCd": "2%07d" % i, "movieNm": "영화 제목 %d" % i, "moviePartNm": "배우"} for i in range(films)]
    info = {"peopleCd": code, "peopleNm": "많은 사람", "peopleNmEn": "Many", "sex": "남자", "repRoleNm": "배우",
            "homepages": [], "filmos": filmography}
    return json.dumps({"peopleInfoResult": {"peopleInfo": info, "source": "영화진흥위원회"}},
                      ensure_ascii=False).encode()


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # the worker hangs up on a body past its bound


def serve(films):
    template = person("CODE0000", films)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            code = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(self.path).query)).get("peopleCd", "00000000")
            body = template.replace(b"CODE0000", code.encode()[:8].ljust(8, b"0"))
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, len(template)


@pytest.mark.parametrize("films", [100_000, 12_000])
def test_twenty_concurrent_huge_filmographies_stay_under_200_mb(films):
    server, size = serve(films)
    try:
        environment = {key: value for key, value in os.environ.items() if not key.startswith(("KOBIS_", "KAKAO_"))}
        environment.update({"BOXOFFICE_TODAY": "2026-11-21", "KOBIS_API_KEY": "test-kobis-key",
                            "KOBIS_BASE_URL": "http://127.0.0.1:%d/kobis" % server.server_address[1],
                            "KAKAO_REST_API_KEY": ""})
        worker = subprocess.Popen([BINARY, "--no-cache"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, env=environment)
        requests = "".join('{"jsonrpc":"2.0","id":%d,"method":"people.detail","params":{"peopleCode":"%d"}}\n'
                           % (index, 10_000_000 + index) for index in range(20))
        worker.stdin.write(requests.encode())
        worker.stdin.flush()
        answers = [json.loads(worker.stdout.readline()) for _ in range(20)]
        with open("/proc/%d/status" % worker.pid) as status:
            peak_kib = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
        worker.stdin.close()
        assert worker.wait(timeout=30) == 0
    finally:
        server.shutdown()
    assert peak_kib < 200 * 1024, "the worker's peak was %.0f MB" % (peak_kib / 1024)
    if size > 1 << 20:
        for answer in answers:
            assert "larger than 1048576 bytes" in answer["error"]["message"], answer
    else:
        for answer in answers:
            assert len(answer["result"]["filmography"]) == 5000, answer.get("error")

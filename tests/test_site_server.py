"""scripts/site.py: the config as MkDocs reads it, and a local server that stays quiet when a
browser drops a connection."""

from __future__ import annotations

import http.server
import socket
import time

from scripts.site import QuietServer, load_config, serve


def test_the_config_is_read_as_mkdocs_reads_it(monkeypatch):
    monkeypatch.setenv("SITE_URL", "https://example.org/lecture/")
    assert load_config()["site_url"] == "https://example.org/lecture/"  # !ENV resolved
    offline = load_config("mkdocs-offline.yml")  # INHERIT merged: the nav comes from mkdocs.yml
    assert offline["nav"] == load_config()["nav"] and offline["use_directory_urls"] is False


def test_a_dropped_connection_prints_nothing_and_other_errors_still_do(tmp_path, capfd):
    (tmp_path / "big.bin").write_bytes(bytes(32 << 20))  # more than the socket buffers hold
    with serve(tmp_path, prefixes=("/",)) as origin:
        port = int(origin.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(b"GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n")
            s.recv(1024)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\0\0\0\0\0\0\0")  # reset
        time.sleep(1.0)  # the server's next write fails
    assert "Traceback" not in capfd.readouterr().err

    server = QuietServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    try:
        raise ValueError("a real bug")
    except ValueError:
        server.handle_error(None, ("127.0.0.1", 0))
    finally:
        server.server_close()
    assert "ValueError: a real bug" in capfd.readouterr().err

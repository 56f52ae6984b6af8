"""The Flask page: live board, calls, referee controls and the streamer overlay."""

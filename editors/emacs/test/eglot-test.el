;;; eglot-test.el --- Emacs with Eglot against animc lsp, in batch -*- lexical-binding: t; -*-

;; Run by .ci/run from the repository's root:
;;   ANIMC=.build/debug/animc emacs --batch -Q -l editors/emacs/test/eglot-test.el
;; A second real client beside Neovim, with what Eglot 1.9 declares when neither
;; yasnippet nor markdown-mode is installed: no snippets, plaintext hovers, its own
;; framing. Opens editors/test/features.anim and checks diagnostics (Flymake), hover,
;; completion by type, signature help, inlay hints, highlights, links, workspace
;; symbols, the code lens, definition (xref), formatting and rename (edits applied
;; to the buffer by Eglot). Exits 1 on the first failure.

;;; Code:

;; -Q skips site start-up: activate the packages Debian installs (elpa-eglot and the
;; newer project, xref and seq it needs) as a user's Emacs would.
(require 'package)
(add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
(package-initialize)
(require 'eglot)
(require 'xref)
(add-to-list 'load-path (expand-file-name "editors/emacs"))
(require 'anim-mode)
(setq anim-animc-program (let ((p (getenv "ANIMC"))) (if p (expand-file-name p) "animc")))
(setq eglot-sync-connect 30 eglot-connect-timeout 30 eglot-autoreconnect nil)

(defun anim-test-fail (format-string &rest args)
  (message "FAIL: %s" (apply #'format format-string args))
  (kill-emacs 1))

(defun anim-test-pass (format-string &rest args)
  (message "ok: %s" (apply #'format format-string args)))

(defun anim-test-goto (line character)
  "Moves to LINE and CHARACTER, both from 0 as LSP counts them."
  (goto-char (point-min))
  (forward-line line)
  (forward-char character))

(defun anim-test-request (method params)
  (jsonrpc-request (eglot--current-server-or-lose) method params :timeout 30))

(defun anim-test-at (line character)
  (anim-test-goto line character)
  (eglot--TextDocumentPositionParams))

(defun anim-test-document ()
  (list :textDocument (eglot--TextDocumentIdentifier)))

(defconst anim-test-file (expand-file-name "editors/test/features.anim"))
(find-file anim-test-file)
(unless (eq major-mode 'anim-mode) (anim-test-fail "features.anim is not in anim-mode: %s" major-mode))
(eglot-ensure)
(run-hooks 'post-command-hook)  ; eglot-ensure connects on the next command
(with-timeout (30 (anim-test-fail "Eglot did not connect"))
  (while (not (eglot-current-server)) (accept-process-output nil 0.1)))
(anim-test-pass "Eglot connected to %s" (plist-get (eglot--server-info (eglot-current-server)) :name))

;; Diagnostics: a clean file has none; a typo gets its code through Flymake.
(goto-char (point-min))
(search-forward "opacity: 0\n")
(forward-line -1)
(end-of-line)
(insert "\n  opactiy: 1")
(eglot--signal-textDocument/didChange)
(with-timeout (30 (anim-test-fail "no diagnostic for the typo"))
  (while (not (flymake-diagnostics)) (accept-process-output nil 0.1)))
(let ((text (flymake-diagnostic-text (car (flymake-diagnostics)))))
  (unless (string-match-p "opactiy" text) (anim-test-fail "diagnostic: %s" text))
  (anim-test-pass "Flymake: %s" (car (split-string text "\n"))))
(delete-region (line-beginning-position) (1+ (line-end-position)))
(eglot--signal-textDocument/didChange)

;; Hover in plaintext: Eglot without markdown-mode declared no markdown.
(let* ((hover (anim-test-request :textDocument/hover (anim-test-at 26 18)))
       (contents (plist-get hover :contents))
       (value (if (stringp contents) contents (plist-get contents :value))))
  (unless (and value (string-match-p "rgb(51, 102, 255)" value)) (anim-test-fail "hover: %S" hover))
  (when (or (equal (plist-get contents :kind) "markdown") (string-match-p "```" value))
    (anim-test-fail "markdown to a plaintext client: %S" value))
  (anim-test-pass "hover on #3366ff in plaintext: %s" (replace-regexp-in-string "\n" " " value)))

;; Completion at point, through Eglot's completion table: timing functions after
;; timingFunction:, and none a snippet (Eglot without yasnippet declared none).
(anim-test-goto 18 20)
(let* ((capf (eglot-completion-at-point))
       (labels (all-completions "" (nth 2 capf))))
  (unless (and (member "pop" labels) (member "easeIn" labels) (not (member "opacity" labels)))
    (anim-test-fail "completion after timingFunction: %S" labels))
  (let* ((raw (anim-test-request :textDocument/completion (anim-test-at 18 20)))
         (items (if (vectorp raw) raw (plist-get raw :items))))
    (seq-doseq (item items)
      (when (eql (plist-get item :insertTextFormat) 2)
        (anim-test-fail "a snippet to a client without snippets: %S" item))))
  (anim-test-pass "completion after timingFunction: %d items, pop among them, no snippets" (length labels)))

(let ((help (anim-test-request :textDocument/signatureHelp (anim-test-at 25 40))))
  (unless (and (string-prefix-p "arc(center:" (plist-get (aref (plist-get help :signatures) 0) :label))
               (eql (plist-get help :activeParameter) 1))
    (anim-test-fail "signature help: %S" help))
  (anim-test-pass "signature help: arc, active parameter radius"))

(let* ((hints (anim-test-request :textDocument/inlayHint
                                 (append (anim-test-document)
                                         (list :range (list :start '(:line 0 :character 0)
                                                            :end '(:line 30 :character 0))))))
       (labels (mapcar (lambda (h) (plist-get h :label)) hints)))
  (unless (and (member "⟨0.5 s → 0.75 s⟩" labels) (member "= 0.25s" labels))
    (anim-test-fail "inlay hints: %S" labels))
  (anim-test-pass "inlay hints: %s" (string-join labels ", ")))

(let ((highlights (anim-test-request :textDocument/documentHighlight (anim-test-at 16 15))))
  (unless (equal (mapcar (lambda (h) (plist-get (plist-get (plist-get h :range) :start) :line)) highlights) '(8 16))
    (anim-test-fail "highlights: %S" highlights))
  (anim-test-pass "document highlight: fast on lines 9 and 17"))

(let ((links (anim-test-request :textDocument/documentLink (anim-test-document))))
  (unless (and (> (length links) 0) (string-suffix-p "editors/test/badge.png" (plist-get (aref links 0) :target)))
    (anim-test-fail "links: %S" links))
  (anim-test-pass "document link: %s" (plist-get (aref links 0) :target)))

(let ((symbols (anim-test-request :workspace/symbol '(:query "ring"))))
  (unless (and (> (length symbols) 0) (equal (plist-get (aref symbols 0) :name) "ring"))
    (anim-test-fail "workspace symbols: %S" symbols))
  (anim-test-pass "workspace symbol: ring"))

(let* ((lenses (anim-test-request :textDocument/codeLens (anim-test-document)))
       (command (and (> (length lenses) 0) (plist-get (aref lenses 0) :command))))
  (unless (and command (equal (plist-get command :command) "animc.preview"))
    (anim-test-fail "code lens: %S" lenses))
  (anim-test-pass "code lens: %s" (plist-get command :title)))

;; Definition through xref, as M-. does.
(anim-test-goto 16 15)
(let* ((definitions (xref-backend-definitions 'eglot (xref-backend-identifier-at-point 'eglot)))
       (location (and definitions (xref-item-location (car definitions)))))
  (unless (and location (= (xref-location-line location) 9))
    (anim-test-fail "definition of fast: %S" definitions))
  (anim-test-pass "definition of fast: line %d" (xref-location-line location)))

;; Formatting gives `animc fmt`'s output.
(goto-char (point-min))
(search-forward "size: 200 x 200")
(replace-match "size:   200 x 200")
(eglot--signal-textDocument/didChange)
(eglot-format-buffer)
(let ((expected (with-temp-buffer
                  (insert-file-contents anim-test-file)
                  (buffer-string))))
  (unless (equal (buffer-string) expected) (anim-test-fail "formatting: %s" (buffer-string)))
  (anim-test-pass "formatting matches animc fmt"))

;; Rename right after the format, before Eglot has sent the change: the server's edits
;; carry the version they were made for, and Eglot refuses them rather than applying them
;; to other text (plain `changes' were applied: a rename after a format corrupted a line,
;; issue 52). A client that sent the change first gets them applied.
(anim-test-goto 8 5)
(let ((before (buffer-string))
      (refused nil))
  (condition-case nil
      (eglot-rename "quick")
    (jsonrpc-error (setq refused t)))
  (when refused
    (unless (equal (buffer-string) before) (anim-test-fail "a refused rename changed the buffer"))
    (anim-test-pass "a rename made for an older version is refused, the buffer left as it was")
    (eglot--signal-textDocument/didChange)
    (anim-test-goto 8 5)
    (eglot-rename "quick")))

;; Rename, applied by Eglot: every use of fast changes, nothing else.
(let ((text (buffer-string)))
  (unless (and (string-match-p "let quick = 0.25s" text) (string-match-p "duration: quick" text)
               (not (string-match-p "\\_<fast\\_>" text)))
    (anim-test-fail "rename: %s" text))
  (anim-test-pass "rename fast → quick: both uses changed"))

(set-buffer-modified-p nil)
(eglot-shutdown (eglot-current-server))
(kill-emacs 0)
;;; eglot-test.el ends here

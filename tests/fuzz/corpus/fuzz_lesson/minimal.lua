return lesson {
 id = '9.1', chapter = 9,
 title = {en='T', zh='T'}, chapter_title = {en='C', zh='C'},
 text { en = '# Hi\n\nText', zh = '# 你好\n\n正文' },
 exercise { id = 'q', kind = 'choice', prompt = {en='a', zh='b'},
  explain = {en='a', zh='b'}, hints = {{en='h', zh='h'}},
  choices = {{en='a', zh='b'}, {en='c', zh='d'}}, answer = 1 },
}

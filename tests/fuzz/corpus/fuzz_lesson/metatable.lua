local t = text { en = 'a', zh = 'b' }
setmetatable(t, {__index = function() error('boom') end})
return lesson {
 id = '9.1', chapter = 9,
 title = {en='T', zh='T'}, chapter_title = {en='C', zh='C'},
 t,
}
